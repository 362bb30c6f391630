"""Empires in Arms advanced naval combat (rules 12.2.6 to 12.2.9): a second,
optional combat rule set that a campaign chooses when it is created.

PATE's own combat (:mod:`pate.core.rules.combat`) stays the default; this
package is chosen by the campaign's ``combat_rules`` (docs/rules/eia.md).
"""

from pate.core.rules.eia.params import Chit, EiaRules

__all__ = ["Chit", "EiaRules"]
