// Arrives with issue 5.
