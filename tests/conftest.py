"""Shared test settings: hypothesis runs are derandomised so every run checks the same cases."""
from hypothesis import settings

settings.register_profile("deterministic", derandomize=True, print_blob=True)
settings.load_profile("deterministic")
