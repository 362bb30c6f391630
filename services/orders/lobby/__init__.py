"""The lobby (pate.v1.Lobby, docs/lobby.md): published campaigns, seats taken or asked for,
replacement seats, solo games for accounts and the reliability record they are judged by."""
