"""The web Ship Order Desk (rule 4.1): players, naval ministers and game masters in a browser."""
