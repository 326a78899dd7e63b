from catalint.cli import entry

entry()
