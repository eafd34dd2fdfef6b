"""Training of capclean's models: research code, not shipped to workers."""
