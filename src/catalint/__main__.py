from catalint.cli import main

main()
