"""Dev-only training pipeline (numpy, CPU torch, gnubg-nn). Never shipped."""
