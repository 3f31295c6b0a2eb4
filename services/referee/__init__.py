"""The referee process: judges commands of cmd:{s} and lands them with the append script."""
