"""What an operator sees of a server: Prometheus metrics and structured JSON logs."""
