"""The words of the duplex calibration sheet, in English, French and Dutch.

The numbers a user reads off the ladders and types into ``cardgen config set
back-offset X,Y`` keep a decimal point in every language, as the command takes them.
"""

from __future__ import annotations

LANGS = ("en", "fr", "nl")

TEXT: dict[str, dict[str, str]] = {
    "en": {
        "title": "Printer calibration",
        "x_line": "X line",
        "y_line": "Y line",
        "target": "Target \u00b7 1 mm squares",
        "front_header": "FRONT \u00b7 page 1 of 2 \u00b7 {paper} paper \u00b7 two-sided, {flip} \u00b7 made by cardgen",
        "intro": "This sheet measures how far your printer shifts the back of a sheet against its front, so that "
                 "cardgen can put every card back right behind its front.",
        "step1": "Print this file at 100 % (\u201cActual size\u201d). Never use \u201cFit to page\u201d: it shrinks the "
                 "sheet and spoils the measurement.",
        "step2": "Print it on both sides of one sheet (\u201ctwo-sided\u201d), {flip}. Use the printer, tray and paper "
                 "you will use for your cards.",
        "step3": "Turn the sheet over to the side with the numbered ladders, and hold it up against a window or a "
                 "lamp: the lines of this side shine through.",
        "step4": "Ladder X: find the short mark that sits exactly on the upright X line shining through, and read "
                 "the number beside it. That number is X. If the line falls between two marks, take the number "
                 "halfway between them (for example 0.75).",
        "step5": "Ladder Y: the same with the flat Y line. That number is Y.",
        "step6": "Save the two numbers, in a terminal:",
        "for_example": "for example:",
        "then_build": "Then build your cards again: every back page moves by X and Y, onto its front.",
        "step7": "Slant check: the long lines near the left and right edges of both sides should stay the same "
                 "distance apart from top to bottom. If they close up at one end, the paper went in crooked: push "
                 "the paper guides against the stack and print again (no setting can correct a slant). This sheet "
                 "is for {edge} duplex only.",
        "edge_long": "long-edge",
        "edge_short": "short-edge",
        "flip_long": "flip on the long edge",
        "flip_short": "flip on the short edge",
        "back_header": "BACK \u00b7 page 2 of 2 \u00b7 {paper} paper \u00b7 two-sided, {flip}",
        "mark_x": "mark on the line = X",
        "mark_y": "mark on the line = Y",
        "behind_target": "sits on the target of the front",
        "hold": "Hold the sheet up to the light with this side facing you. The X line and the Y line of the front "
                "shine through the paper.",
        "find": "In each ladder, find the mark that sits exactly on its line, and read its number. If the ladders "
                "do not show up in the middle of the sheet behind the lines, the sheet was not printed two-sided "
                "with the right flip.",
        "type": "Then type, in a terminal:",
        "no_mark": "If no mark touches a line, your printer is off by more than 3 mm: check the paper guides and "
                   "print the sheet again. Printers vary a little from sheet to sheet: print two or three and use "
                   "the typical numbers.",
        "meaning": "What X and Y mean: cardgen moves everything on each back page X mm to the right and Y mm down "
                   "(negative numbers: left and up), in the directions of the back page as page 2 of a cards file "
                   "shows it on screen. Each mark is printed where the 0 mark lands after that move, so the mark "
                   "on the line is the move that puts the backs onto their fronts.",
        "example": "Example: the grey line is the line of the front shining through. It runs right through the "
                   "mark +0.5, so X = 0.5. If it had run between +0.5 and +1.0, X would be 0.75.",
    },
    "fr": {
        "title": "Calibrage de l\u2019imprimante",
        "x_line": "Ligne X",
        "y_line": "Ligne Y",
        "target": "Cible \u00b7 carr\u00e9s de 1\u00a0mm",
        "front_header": "RECTO \u00b7 page 1 sur 2 \u00b7 papier {paper} \u00b7 recto verso, {flip} \u00b7 cr\u00e9\u00e9 par "
                        "cardgen",
        "intro": "Cette feuille mesure de combien votre imprimante d\u00e9cale le verso d\u2019une feuille par rapport "
                 "\u00e0 son recto, pour que cardgen place chaque dos de carte exactement derri\u00e8re sa face.",
        "step1": "Imprimez ce fichier \u00e0 100\u00a0% (\u00ab\u00a0Taille r\u00e9elle\u00a0\u00bb). N\u2019utilisez "
                 "jamais \u00ab\u00a0Ajuster \u00e0 la page\u00a0\u00bb\u00a0: cela r\u00e9duit la feuille et fausse "
                 "la mesure.",
        "step2": "Imprimez-le sur les deux faces d\u2019une feuille (\u00ab\u00a0recto verso\u00a0\u00bb), {flip}. "
                 "Utilisez l\u2019imprimante, le bac et le papier de vos cartes.",
        "step3": "Retournez la feuille c\u00f4t\u00e9 \u00e9chelles num\u00e9rot\u00e9es et tenez-la devant une "
                 "fen\u00eatre ou une lampe\u00a0: les lignes de ce c\u00f4t\u00e9-ci apparaissent par transparence.",
        "step4": "\u00c9chelle X\u00a0: trouvez le petit trait pos\u00e9 exactement sur la ligne X verticale vue par "
                 "transparence, et lisez le nombre \u00e0 c\u00f4t\u00e9. Ce nombre est X. Si la ligne tombe entre "
                 "deux traits, prenez le nombre \u00e0 mi-chemin (par exemple 0.75).",
        "step5": "\u00c9chelle Y\u00a0: de m\u00eame avec la ligne Y horizontale. Ce nombre est Y.",
        "step6": "Enregistrez les deux nombres, dans un terminal\u00a0:",
        "for_example": "par exemple\u00a0:",
        "then_build": "Puis reconstruisez vos cartes\u00a0: chaque page de dos se d\u00e9place de X et Y, sur sa "
                      "face.",
        "step7": "Contr\u00f4le de biais\u00a0: les longues lignes pr\u00e8s des bords gauche et droit des deux faces "
                 "doivent rester \u00e0 la m\u00eame distance l\u2019une de l\u2019autre de haut en bas. Si elles se "
                 "rapprochent \u00e0 un bout, le papier est entr\u00e9 de travers\u00a0: serrez les guides contre la "
                 "pile et imprimez \u00e0 nouveau (aucun r\u00e9glage ne corrige un biais). Cette feuille ne vaut "
                 "que pour le recto verso {edge}.",
        "edge_long": "bord long",
        "edge_short": "bord court",
        "flip_long": "retournement sur le bord long",
        "flip_short": "retournement sur le bord court",
        "back_header": "VERSO \u00b7 page 2 sur 2 \u00b7 papier {paper} \u00b7 recto verso, {flip}",
        "mark_x": "trait sur la ligne = X",
        "mark_y": "trait sur la ligne = Y",
        "behind_target": "tombe sur la cible du recto",
        "hold": "Tenez la feuille devant la lumi\u00e8re, ce c\u00f4t\u00e9 vers vous. Les lignes X et Y du recto "
                "apparaissent par transparence.",
        "find": "Dans chaque \u00e9chelle, trouvez le trait pos\u00e9 exactement sur sa ligne et lisez son nombre. "
                "Si les \u00e9chelles n\u2019apparaissent pas au milieu de la feuille derri\u00e8re les lignes, la "
                "feuille n\u2019a pas \u00e9t\u00e9 imprim\u00e9e en recto verso avec le bon retournement.",
        "type": "Puis tapez, dans un terminal\u00a0:",
        "no_mark": "Si aucun trait ne touche une ligne, votre imprimante se d\u00e9cale de plus de 3\u00a0mm\u00a0: "
                   "v\u00e9rifiez les guides du papier et imprimez la feuille \u00e0 nouveau. Les imprimantes "
                   "varient un peu d\u2019une feuille \u00e0 l\u2019autre\u00a0: imprimez-en deux ou trois et retenez "
                   "les nombres habituels.",
        "meaning": "Ce que signifient X et Y\u00a0: cardgen d\u00e9place tout le contenu de chaque page de dos de X\u00a0mm "
                   "vers la droite et de Y\u00a0mm vers le bas (nombres n\u00e9gatifs\u00a0: vers la gauche et vers le "
                   "haut), dans le sens de la page de dos telle que la page 2 d\u2019un fichier de cartes "
                   "l\u2019affiche \u00e0 l\u2019\u00e9cran. Chaque trait est imprim\u00e9 l\u00e0 o\u00f9 le trait 0 "
                   "arrive apr\u00e8s ce d\u00e9placement\u00a0: le trait sur la ligne est donc le d\u00e9placement "
                   "qui pose les dos sur leurs faces.",
        "example": "Exemple\u00a0: la ligne grise est la ligne du recto vue par transparence. Elle passe exactement "
                   "par le trait +0.5, donc X = 0.5. Si elle \u00e9tait pass\u00e9e entre +0.5 et +1.0, X vaudrait "
                   "0.75.",
    },
    "nl": {
        "title": "Printerkalibratie",
        "x_line": "X-lijn",
        "y_line": "Y-lijn",
        "target": "Doel \u00b7 hokjes van 1 mm",
        "front_header": "VOORKANT \u00b7 pagina 1 van 2 \u00b7 papier {paper} \u00b7 dubbelzijdig, {flip} \u00b7 gemaakt "
                        "met cardgen",
        "intro": "Dit vel meet hoe ver je printer de achterkant van een vel verschuift ten opzichte van de "
                 "voorkant, zodat cardgen elke kaartrug precies achter zijn voorkant kan zetten.",
        "step1": "Druk dit bestand af op 100 % (\u201eWerkelijke grootte\u201d). Gebruik nooit \u201eAanpassen aan "
                 "pagina\u201d: dat verkleint het vel en bederft de meting.",
        "step2": "Druk het af op beide kanten van \u00e9\u00e9n vel (\u201edubbelzijdig\u201d), {flip}. Gebruik de "
                 "printer, de lade en het papier van je kaarten.",
        "step3": "Draai het vel om naar de kant met de genummerde ladders en houd het tegen een raam of een lamp: "
                 "de lijnen van deze kant schijnen erdoorheen.",
        "step4": "Ladder X: zoek het korte streepje dat precies op de doorschijnende staande X-lijn ligt en lees "
                 "het getal ernaast. Dat getal is X. Valt de lijn tussen twee streepjes, neem dan het getal "
                 "halverwege (bijvoorbeeld 0.75).",
        "step5": "Ladder Y: hetzelfde met de liggende Y-lijn. Dat getal is Y.",
        "step6": "Sla de twee getallen op, in een terminal:",
        "for_example": "bijvoorbeeld:",
        "then_build": "Bouw daarna je kaarten opnieuw: elke achterkantpagina schuift X en Y op, precies op haar "
                      "voorkant.",
        "step7": "Scheefcontrole: de lange lijnen bij de linker- en rechterrand van beide kanten horen van boven "
                 "tot onder even ver uit elkaar te blijven. Lopen ze aan \u00e9\u00e9n kant naar elkaar toe, dan "
                 "ging het papier scheef de printer in: schuif de papiergeleiders tegen de stapel en druk opnieuw "
                 "af (geen instelling verhelpt scheefheid). Dit vel geldt alleen voor dubbelzijdig afdrukken "
                 "{edge}.",
        "edge_long": "over de lange kant",
        "edge_short": "over de korte kant",
        "flip_long": "omslaan over de lange kant",
        "flip_short": "omslaan over de korte kant",
        "back_header": "ACHTERKANT \u00b7 pagina 2 van 2 \u00b7 papier {paper} \u00b7 dubbelzijdig, {flip}",
        "mark_x": "streepje op de lijn = X",
        "mark_y": "streepje op de lijn = Y",
        "behind_target": "valt op het doel van de voorkant",
        "hold": "Houd het vel tegen het licht, met deze kant naar je toe. De X-lijn en de Y-lijn van de voorkant "
                "schijnen door het papier.",
        "find": "Zoek in elke ladder het streepje dat precies op zijn lijn ligt en lees het getal. Verschijnen de "
                "ladders niet midden op het vel achter de lijnen, dan is het vel niet dubbelzijdig afgedrukt met "
                "de juiste omslag.",
        "type": "Typ daarna, in een terminal:",
        "no_mark": "Raakt geen enkel streepje een lijn, dan wijkt je printer meer dan 3 mm af: controleer de "
                   "papiergeleiders en druk het vel opnieuw af. Printers verschillen een beetje van vel tot vel: "
                   "druk er twee of drie af en neem de gebruikelijke getallen.",
        "meaning": "Wat X en Y betekenen: cardgen schuift alles op elke achterkantpagina X mm naar rechts en Y mm "
                   "omlaag (negatieve getallen: naar links en omhoog), in de richtingen van de achterkantpagina "
                   "zoals pagina 2 van een kaartenbestand die op het scherm toont. Elk streepje staat waar het "
                   "streepje 0 na die verschuiving terechtkomt: het streepje op de lijn is dus de verschuiving die "
                   "de achterkanten op hun voorkanten legt.",
        "example": "Voorbeeld: de grijze lijn is de doorschijnende lijn van de voorkant. Hij loopt precies door "
                   "het streepje +0.5, dus X = 0.5. Was hij tussen +0.5 en +1.0 gelopen, dan was X 0.75.",
    },
}
