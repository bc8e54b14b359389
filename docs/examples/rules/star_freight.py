"""Star Freight (docs/examples/star-freight) with cardgen's rules kit. Each turn, take a market card
(refilled from the draw pile) or draw one; then deliver every card of one kind from your hand, 3+ cargo
cards of a suit (their values score) or 2 action cards alike (4 points each), or pass. The game ends
when the draw pile is empty."""

from __future__ import annotations

from cardgen.rules import register
from cardgen.rules.api import RuleViolation
from cardgen.rules.kit import Kit, hidden, own, public

HAND, MARKET, ACTION_POINTS = 5, 4, 4


class StarFreight(Kit):
    game_id = "star-freight"
    players = (2, 5)
    piles = (hidden("draw"), public("market", most=MARKET), own("hand"), public("delivered", each=True))
    flows = ("market -> hand", "draw -> market", "draw -> hand", "hand -> delivered")  # where cards may go
    phases = ("take", "deliver")

    def card(self, fields):  # (kind, points): a cargo card's suit and value, an action's id
        return (fields["suit"]["id"], fields["value"]) if "suit" in fields else (fields["action"]["id"], 0)

    def setup(self, t, game):
        for seat in range(game.num_players):
            t.draw("draw", ("hand", seat), HAND)
        t.draw("draw", "market", MARKET)

    def deliverable(self, hand, game):
        kinds = [game.cards[c] for c in hand]
        return sorted({k for k, points in kinds if [x for x, _ in kinds].count(k) >= (3 if points else 2)})

    def moves(self, t, game):
        if t.phase == "take":
            return [("take", c) for c in t.pile("market")] + ([("draw",)] if t.pile("draw") else [])
        return [("deliver", kind) for kind in self.deliverable(t.pile(("hand", t.seat)), game)] + [("pass",)]

    def play(self, t, move, game):
        hand = ("hand", t.seat)
        if move[0] == "take":
            t.move(move[1], "market", hand)
            t.draw("draw", "market")
        elif move[0] == "draw":
            t.draw("draw", hand)
        if move[0] in ("take", "draw"):
            t.phase = "deliver"
            return
        if move[0] == "deliver":
            for c in [c for c in t.pile(hand) if game.cards[c][0] == move[1]]:
                t.move(c, hand, ("delivered", t.seat))
                t.scores[t.seat] += game.cards[c][1] or ACTION_POINTS
        t.end_turn()
        t.over = not t.pile("draw")

    def judge(self, t, seat, move, game):
        taking = move[0] in ("take", "draw")
        if taking != (t.phase == "take"):
            raise RuleViolation(f"seat {seat + 1} plays {move[0]} in the {t.phase} phase")
        if move[0] == "take" and move[1] not in t.pile("market"):
            raise RuleViolation(f"seat {seat + 1} takes {game.names[move[1]]}, which is not in the market")
        if move[0] == "deliver":
            held = [game.cards[c] for c in t.pile(("hand", seat)) if game.cards[c][0] == move[1]]
            if len(held) < (3 if held and held[0][1] else 2):
                raise RuleViolation(f"seat {seat + 1} delivers {len(held)} {move[1]} card(s): too few")

    def judge_end(self, t, game):
        if t.pile("draw"):
            raise RuleViolation(f"the game ended with {len(t.pile('draw'))} cards left to draw")

    def value(self, view, move, game):  # the greedy player: deliver the most, else collect
        hand = view.piles["hand"][view.player]
        if move[0] == "deliver":
            return 100 + sum(game.cards[c][1] or ACTION_POINTS for c in hand if game.cards[c][0] == move[1])
        if move[0] == "take":
            return 0.5 + sum(game.cards[c][0] == game.cards[move[1]][0] for c in hand)
        return 1 if move[0] == "draw" else 0

register(StarFreight())
