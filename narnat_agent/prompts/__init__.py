"""What the model is told: the fixed texts and the system prompt built from them."""
