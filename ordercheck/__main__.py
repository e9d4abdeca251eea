try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while still importing: the same exit as later
    raise SystemExit(130) from None

main()
