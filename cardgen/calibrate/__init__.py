"""The duplex calibration sheet that measures a printer's back offset."""
