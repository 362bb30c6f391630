"""The bot admiral service: plays the players the bot holds, as a client of the platform (docs/bots.md)."""
