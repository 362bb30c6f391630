"""The players and alliances of the grand campaign of 1805, written into
``data/scenarios/grand1805.toml`` by :mod:`pate.databuild.grand_scenario`."""

from __future__ import annotations

# (id, name, state, roles)
PLAYERS: tuple[tuple[str, str, str | None, str], ...] = (
    ("admin", "Game Administrator", None, "admin"),
    ("barham", "Charles Middleton, Lord Barham", "BR", "naval_minister"),
    ("nelson", "Horatio Nelson", "BR", "commander"),
    ("cornwallis", "William Cornwallis", "BR", "commander"),
    ("collingwood", "Cuthbert Collingwood", "BR", "commander"),
    ("calder", "Robert Calder", "BR", "commander"),
    ("keith", "George Elphinstone, Lord Keith", "BR", "commander"),
    ("cochrane", "Alexander Cochrane", "BR", "commander"),
    ("decres", "Denis Decres", "FR", "naval_minister"),
    ("villeneuve", "Pierre Villeneuve", "FR", "commander"),
    ("ganteaume", "Honore Ganteaume", "FR", "commander"),
    ("allemand", "Zacharie Allemand", "FR", "commander"),
    ("grandallana", "Domingo Perez de Grandallana", "SP", "naval_minister"),
    ("gravina", "Federico Gravina", "SP", "commander"),
    ("salcedo", "Jose Justo Salcedo", "SP", "commander"),
    ("chichagov", "Pavel Chichagov", "RU", "naval_minister"),
    ("senyavin", "Dmitry Senyavin", "RU", "commander"),
    ("khanykov", "Peter Khanykov", "RU", "commander"),
    ("verhuell", "Carel Hendrik Ver Huell", "HO", "naval_minister"),
    ("kikkert", "Albert Kikkert", "HO", "commander"),
    ("krieger", "Johan Cornelius Krieger", "DK", "naval_minister"),
    ("bille", "Steen Andersen Bille", "DK", "commander"),
    ("puke", "Johan af Puke", "SW", "naval_minister"),
    ("cederstrom", "Rudolf Cederstrom", "SW", "commander"),
    ("anadia", "Joao Rodrigues de Sa e Melo, Viscount of Anadia", "PO", "naval_minister"),
    ("cunha", "Manuel da Cunha Souto Maior", "PO", "commander"),
    ("acton", "John Acton", "NE", "naval_minister"),
    ("forteguerri", "Bartolomeo Forteguerri", "NE", "commander"),
    ("archduke_charles", "Archduke Charles", "AU", "naval_minister"),
)

# The Third Coalition (Britain, Russia, Austria, Sweden) against France and her
# allies (Spain, Holland); the Bourbon French side with Britain.  Everyone else
# starts at peace.
COALITION = ("BR", "RU", "AU", "SW", "BF")
FRENCH_SIDE = ("FR", "SP", "HO")
