from bot.cli.main import main

raise SystemExit(main())
