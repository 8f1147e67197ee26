"""Reading a message in code: intent labels, text normalisation, links."""
