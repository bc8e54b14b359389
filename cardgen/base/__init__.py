"""What lies below every stage: errors, units, the files cardgen writes, the
folders it reads from, worker processes and the folder jail. Imports nothing else of
cardgen."""
