"""Generated from proto/; do not edit."""
