"""Test helpers shared by several test packages (real processes: nginx, …)."""
