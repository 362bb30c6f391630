"""Developer tools run with ``python -m pate.tools.<name>``: regenerate the contracts
(``genproto``), map the rules to code and tests (``rulemap``), calibrate the combat models
(``calibrate``, ``calibrate_eia``), measure storm rates (``storm_rates``), lint the Kubernetes
overlays (``k8scheck``) and play whole campaigns headless (``playbot``, ``playcheck``).

The product's own commands live in ``pate.cli`` (and the GITM kit in ``pate.gitmkit``); the
builders of shipped data files in ``pate.databuild``."""
