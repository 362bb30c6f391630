"""The notifier worker: tells players by email and webhook that a turn is open,
its deadline is near, their reports are ready."""
