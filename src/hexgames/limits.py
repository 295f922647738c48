"""Every cap on the size of an input and on the work done for one, in one place.

Issue 14 ("bounded by design"): every input path has a documented bound on its size, and
every computation on an input is bounded in time and memory by the size of the input or
by one of these caps, never by a quantity that the input can make large at no cost (an
area, a coordinate's magnitude, a count it names). Input over a cap is refused with an
error that names the cap; ``docs/limits.md`` lists them all in the terms of docs/notation.md.

The module has no imports and no behaviour: it is read by the command line
(:mod:`hexgames.cli`), the browser app (:mod:`hexgames.web`) and the pictures
(:mod:`hexgames.svg`), and the other parts of issue 14 add their caps here.
"""

from __future__ import annotations

_KIB = 1024
_MIB = 1024 * _KIB

# --- the command line --------------------------------------------------------------------

#: The largest ``.hgn`` record file (or standard input) that ``replay``, ``render`` and
#: ``analyse --record`` read, in bytes (8 MiB, some 20,000 games of 60 plies). A larger
#: one, ``/dev/zero`` included, is refused after reading one byte more than this, so
#: reading it takes bounded time and memory. Measured: 1 MB of one-move games (25,000
#: of them) parses in 0.5 s and 45 MB.
MAX_RECORD_FILE_BYTES = 8 * _MIB

#: The longest line, in characters, that ``play`` reads at its prompt from piped
#: standard input (a terminal's own line editing bounds typed lines). A longer line ends
#: the game as the end of input does (``--save`` is still written).
MAX_INPUT_LINE = 4096

#: The deepest perft that ``hexgames perft`` counts, in plies: the counts grow about
#: fivefold a ply, so a deeper one would not finish.
MAX_PERFT_DEPTH = 12

#: The most worker processes ``--jobs`` may ask the local executor of ``match``,
#: ``tournament`` and ``selfplay`` for: each is a Python process with its own engine
#: (tens of MB), so more than this would exhaust memory before it sped anything up; a
#: cluster (``--executor ray``) is the way past one machine.
MAX_JOBS = 256

#: The most jobs ``hexgames solve --threads`` runs at once (each a thread or a Ray task
#: with its own prover table of ``--tt-mb``, so memory bounds it before this does).
MAX_SOLVE_THREADS = 256

#: The longest line of the results file of a job-level solve's work directory
#: (``hexgames solve --work-dir``; docs/solver.md), in bytes: a line holds one position
#: string (a position of 1,000 tiles takes about 16 KB); a longer one is refused.
MAX_RESULTS_LINE_BYTES = 1 * _MIB

# --- the browser app: what a client may send ---------------------------------------------

#: The largest HTTP request body the server reads, in bytes (4 MiB); a larger one is
#: refused (HTTP 413) before more than this is read.
MAX_REQUEST_BYTES = 4 * _MIB

#: The most bytes of an incomplete request line and headers (of an HTTP request or a
#: WebSocket handshake) that the server buffers (16 KiB; uvicorn's
#: ``h11_max_incomplete_event_size``); uvicorn reads 256 KiB at a time, so no request
#: line and headers longer than that reach the app.
MAX_HEADER_BYTES = 16 * _KIB

#: The largest WebSocket message the server reads, in bytes (64 KiB; the longest
#: message of the protocol is well under 1 KiB). uvicorn closes a socket that sends a
#: larger frame (code 1009); a larger message that reaches the app is answered with an
#: ``error``.
MAX_MESSAGE_BYTES = 64 * _KIB

#: The longest move text, in characters, that a ``move`` message may hold (a move in the
#: notation of docs/notation.md is far shorter).
MAX_MOVE_TEXT = 64

#: The largest ``.hgn`` text one ``POST /api/import`` stores, in bytes of UTF-8.
MAX_IMPORT_BYTES = 1 * _MIB

#: The most games one ``POST /api/import`` stores; a record of more is refused whole.
MAX_IMPORT_GAMES = 1000

#: The games ``GET /api/games`` lists when the request sets no ``limit``.
GAMES_PAGE = 50

#: The most games one ``GET /api/games`` lists (its largest ``limit``).
MAX_GAMES_PAGE = 500

#: The longest player spec (``alphabeta:time=2,tt_mb=16``), in characters, that the app
#: stores for a side.
MAX_PLAYER_SPEC = 200

#: The largest transposition table, solver table or MCTS tree an AI of the app may ask
#: for, in megabytes (``tt_mb``, ``table_mb``, ``tree_mb``).
MAX_TT_MB = 1024

#: The most moves a line of a socket message may hold (``view``, ``analyse`` and
#: ``study`` name a position by the moves that lead to it; each is replayed).
MAX_LINE_MOVES = 4000

#: The most moves a game's study record may hold, its main line and every side line:
#: a side line that would make more is refused, and so is the import of a record with
#: more (a record is sent whole to every page that watches the game).
MAX_STUDY_NODES = 20_000

#: The longest comment, in characters, that the page may write into a study record.
MAX_COMMENT = 2000

#: The most NAGs (``!``, ``?!``, ``$14``...) the page may give one move.
MAX_NAGS = 8

#: The longest player name, in characters, that the page may write into a record.
MAX_PLAYER_NAME = 100

#: The most lines (MultiPV) one analysis of the app may ask for.
MAX_ANALYSIS_LINES = 5

#: The most pages that may analyse one game at once (each page analyses the position
#: it shows, in a worker process of its own).
MAX_GAME_ANALYSES = 4

#: The hints and analyses (each page's analysis, a whole-game analysis) one account of
#: the server mode may have running at once, over all games.
MAX_HELP_PER_USER = 2

#: The longest an AI of the app thinks about one move, in seconds: a search whose own
#: limit is longer, or which has no time limit (``alphabeta:depth=40``), stops then
#: and plays its best move so far, so no game can keep a worker process for ever.
MAX_AI_SECONDS = 120.0

#: The ``view`` messages the server keeps per game, of the lines (positions) its pages
#: looked at last: a view of one of them again is that message, with no replay
#: (:class:`hexgames.web.positions.Positions`). Each grows with its position (some
#: 60 KB for 600 tiles) and its line; kept while a page watches the game.
KEPT_VIEWS = 32

#: The most bytes of ``view`` messages (JSON text) the server keeps per game (1 MiB):
#: the least recently used go first past it, whatever :data:`KEPT_VIEWS` allows.
KEPT_VIEW_BYTES = 1 * _MIB

#: The boards the server keeps per game at the lines its pages looked at last, from
#: which another line is reached by taking moves back and playing others (stepping
#: through a line plays one move a step, not the whole line); kept while a page
#: watches the game.
KEPT_BOARDS = 4

# --- the browser app's server mode: accounts ------------------------------------------

#: The longest account name, in characters.
MAX_ACCOUNT_NAME = 32

#: The longest password, in characters (argon2 hashes any length; this bounds the work).
MAX_PASSWORD = 256

#: Failed logins of one account from one address within :data:`LOGIN_WINDOW`, after
#: which that address's logins of the account are refused (HTTP 429) until the window
#: has passed (a guesser locks out only itself, at first).
MAX_LOGIN_FAILURES = 5

#: Failed logins of one account from all addresses within :data:`LOGIN_WINDOW`, after
#: which every login of it is refused until the window has passed (guessing from many
#: addresses).
MAX_LOGIN_FAILURES_PER_ACCOUNT = 50

#: Failed logins from one address within :data:`LOGIN_WINDOW` after which its logins
#: are refused, whatever the account.
MAX_LOGIN_FAILURES_PER_ADDRESS = 20

#: Logins of any outcome from one address within :data:`LOGIN_WINDOW` (each checks a
#: password hash, so good logins in a loop would hold the hashing gate).
MAX_LOGINS_PER_ADDRESS = 30

#: Password changes of one account within :data:`SIGNUP_WINDOW` (each hashes twice).
MAX_PASSWORD_CHANGES = 5

#: The window of the login rate limits, in seconds.
LOGIN_WINDOW = 300.0

#: The most open challenges one account may have at once, its invitation links among
#: them; checked and stored in one transaction, so parallel requests cannot pass it.
MAX_CHALLENGES_PER_USER = 20

#: How long an invitation link can be used, in seconds (7 days); it is used once (the
#: account that signs up with it, or accepts it, takes it) and its maker may withdraw it.
INVITE_SECONDS = 7 * 86_400.0

#: Sign-ups from one address within :data:`SIGNUP_WINDOW`, after which its sign-ups are
#: refused (HTTP 429) until the window has passed; counted before the password is hashed.
MAX_SIGNUPS_PER_ADDRESS = 5

#: The window of the sign-up limit, in seconds (an hour).
SIGNUP_WINDOW = 3_600.0

#: The most logins (sessions) one account has at once: a login past it ends the oldest.
MAX_SESSIONS_PER_USER = 20

#: The most running games one account may sit in (against people and AI levels alike;
#: imported games do not count): a challenge it would accept or make it play, or a game
#: against the computer past it, is refused. Checked and stored in one transaction.
MAX_RUNNING_GAMES_PER_USER = 30

#: The most tournaments of the server mode that are not finished (open for entries or
#: running), server-wide; checked and stored in one transaction.
MAX_OPEN_TOURNAMENTS = 20

#: The most tournaments not finished that one account has created.
MAX_TOURNAMENTS_PER_USER = 3

#: The most entrants of one tournament (its ``max_entrants`` may be lower).
MAX_TOURNAMENT_ENTRANTS = 64

#: The most tournaments not finished that one account is entered in. A tournament's
#: games are made whatever :data:`MAX_RUNNING_GAMES_PER_USER` says (the entry was the
#: consent; a round must not wait for a cap), so this and the sizes below bound them.
MAX_ENTRIES_PER_USER = 5

#: The most rounds of a Swiss tournament.
MAX_SWISS_ROUNDS = 15

#: The most entrants of a league's division (each plays the others of its division at
#: once in a season: at most 11 games).
MAX_DIVISION_SIZE = 12

#: The most seasons of a league.
MAX_LEAGUE_SEASONS = 100

#: The longest name of a tournament, in characters.
MAX_TOURNAMENT_NAME = 80

#: Imports (``POST /api/import``) of one account within :data:`IMPORT_WINDOW`; each may
#: hold :data:`MAX_IMPORT_GAMES` games of at most :data:`MAX_IMPORT_BYTES`.
MAX_IMPORTS_PER_USER = 20

#: The window of the import limit, in seconds (an hour).
IMPORT_WINDOW = 3_600.0

#: The most game sockets one account may hold open at once (each page of a game is one).
MAX_SOCKETS_PER_USER = 20

#: The longest chat message between the players of a game, in characters.
MAX_CHAT_TEXT = 280

#: The most rematch offers each player of a finished game makes (a declined offer may
#: come again, but not in a loop that flashes on the opponent's page).
MAX_REMATCH_OFFERS = 3

#: The most chat messages a game keeps; one more is refused (checked and stored in
#: one transaction, so messages sent at once cannot pass it).
MAX_CHAT_MESSAGES = 200

#: The most chat messages one account may send within :data:`CHAT_WINDOW` (over all
#: its games); one more is refused with the seconds to wait.
MAX_CHAT_PER_WINDOW = 5

#: The window of the chat's rate limit, in seconds.
CHAT_WINDOW = 10.0

#: The most sockets of people who are not logged in, over all of them, when the
#: operator lets them watch (``--watch anonymous``); one more is closed (4429).
MAX_ANONYMOUS_SOCKETS = 200

#: How long a seek of the quick pairing waits without its page asking after it, in
#: seconds, before it is dropped (nobody is paired with a page that was closed).
SEEK_IDLE_SECONDS = 30.0

#: The most seeks the quick pairing holds at once (one an account).
MAX_SEEKS = 1000

#: The most bytes of messages that may wait to be sent on one socket (4 MiB: two
#: ``state`` messages of the largest study record); a page that reads more slowly is
#: closed (code 4408), and a newer ``state`` supersedes one still waiting.
MAX_SOCKET_BACKLOG = 4 * _MIB

#: The memory that password hashes (argon2id) may take at once, in bytes (256 MiB): at
#: argon2-cffi's default cost of 64 MiB a hash, 4 sign-ups, logins or password changes
#: hash at once and the others wait their turn (see :data:`MAX_HASH_QUEUE`).
HASH_MEMORY_BUDGET = 256 * _MIB

#: The most requests that wait for a password hash at once; one more is refused with
#: HTTP 503 (the server is busy) without hashing, so a flood costs no memory.
MAX_HASH_QUEUE = 32

#: The most keys (addresses, account names) a rate limit of the server remembers at
#: once (an IPv6 address counts by its /64 network, what one subscriber usually has):
#: entries expire with their window, and when the table is full of live ones a new
#: key is refused (HTTP 429) rather than remembered, so refused requests never make
#: the table grow. Each key holds at most its limit's count of times.
MAX_LIMITER_KEYS = 10_000

#: How often, in seconds, the server looks for game sockets whose login has ended in
#: another process (``hexgames user remove``, ``reset-password``); a login ended by this
#: server (log out, password change) closes its sockets at once, and every action on a
#: socket is checked against its login first.
SESSION_CHECK_INTERVAL = 2.0

#: The most games the server keeps replayed in memory while no page shows them and
#: none of their searches runs; the least recently used one past it is let go (and
#: replayed again when next opened).
MAX_IDLE_SESSIONS = 200

# --- the browser app: turn notifications and vacations (issue 35) ------------------------

#: The longest e-mail address an account may give, in characters (RFC 5321's path).
MAX_EMAIL_LENGTH = 254

#: The intervals of the mail digest a player may choose, in hours: at most one digest
#: is sent to an account in that time.
MAIL_DIGEST_HOURS = (1, 6, 24)

#: The most hours before a correspondence clock runs out at which a player may ask to
#: be warned (one week); the warning comes once per move.
MAX_WARN_HOURS = 168

#: The most days of vacation an account may take in a calendar year (UTC; a vacation
#: counts in the year it starts, a day begun as a whole one): its correspondence clocks
#: do not run meanwhile.
MAX_VACATION_DAYS = 30

#: The most confirmation mails an account may have sent within ``MAIL_CONFIRM_WINDOW``
#: (each save of an unconfirmed address sends one): a player cannot make the server
#: flood someone else's address.
MAX_CONFIRMATION_MAILS = 5

#: The window of ``MAX_CONFIRMATION_MAILS``, in seconds (1 hour).
MAIL_CONFIRM_WINDOW = 3_600.0

#: How often the server looks for digests and warnings to send, in seconds.
MAIL_ROUND_SECONDS = 60.0

#: How long the server waits for the SMTP server, in seconds (connecting, and each
#: command), before it gives up this round and tries again later.
MAIL_TIMEOUT = 20.0

#: After a failure of the SMTP server, how long the server waits before it tries again,
#: in seconds; the wait doubles with each failure in a row up to ``MAIL_MAX_BACKOFF``.
MAIL_BACKOFF = 300.0

#: The longest wait before trying a failing SMTP server again, in seconds (1 hour).
MAIL_MAX_BACKOFF = 3_600.0

# --- searches ----------------------------------------------------------------------------

#: The longest time a search may be given, in seconds (one day): a :class:`Limit`'s
#: ``time``, ``clock`` and ``increment`` (so a player spec's ``time=``), the ``--time``
#: of ``play``, ``match``, ``tournament``, ``selfplay`` and ``analyse`` and ``bench
#: --seconds``. ``time=1e308`` was accepted and ran until Ctrl-C; depth, nodes and
#: playouts are capped as well (``hexgames.engine.base.MAX_LIMIT_COUNT``).
MAX_SEARCH_SECONDS = 86_400.0

# --- the browser app: its database -------------------------------------------------------

#: How long a write to the games database waits for another program's write lock, in
#: seconds, before it fails with an error that says the database is locked (the move,
#: undo or new game is then not made). Reads never wait for writers (WAL mode).
STORE_BUSY_TIMEOUT = 1.0

# --- pictures ------------------------------------------------------------------------------

#: An Andantino picture (:func:`hexgames.svg.board`) draws the whole grid of its view box
#: only when that grid has at most this many cells, or at most
#: :data:`SVG_GRID_FACTOR` times the cells it must draw (the tiles, their neighbours and
#: the marked cells); otherwise it draws only the cells it must, so its size grows with
#: the tiles, not with the area they span.
SVG_FULL_GRID_CELLS = 400

#: See :data:`SVG_FULL_GRID_CELLS`.
SVG_GRID_FACTOR = 4

#: In an Andantino picture of far-apart tiles, a band of more than this many empty rows
#: (or diagonals) between the drawn cells is drawn as this many, with a dashed line
#: where the rest was left out, so the picture's area too grows with the tiles only.
SVG_ELIDED_GAP = 2

# --- the games ---------------------------------------------------------------------------

#: The most tiles an Andantino player may own (``tiles_per_player``; docs/rules.md's standard
#: is 25), and the bound of the "unlimited" supply (``tiles_per_player=None``): a player
#: who has placed this many has none left, and the game is drawn as with any supply
#: (``tiles-exhausted``). It bounds the surface at 1,000 tiles, so a trap test, which
#: flood-fills what a wall encloses, never fills more than about 83,000 cells (a ring of
#: 1,000 tiles; 0.6 s and 100 MB in the Python board, 40 ms in the native core) whatever
#: a position string or a record asks for. A position or rules option over it is refused.
MAX_TILES_PER_PLAYER = 500
