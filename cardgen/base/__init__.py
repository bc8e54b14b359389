"""What lies below every stage: errors, units, the files cardgen writes, the
folders it reads from, worker processes, the folder jail, and the table of the stages
themselves. Imports nothing else of cardgen."""
