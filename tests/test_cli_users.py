"""``hexgames user``, the operator's account commands, run as the operator runs them: the
real command in a process of its own, standard input a pipe, the database a real file
(one that may not be written too: for root, whom file modes do not stop, the command
runs without the capabilities that override them)."""

from __future__ import annotations

import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("argon2")

PASSWORD = "correct horse battery"
NO_STDIN = (b"error: no password was given: {where} (--password-stdin reads the password "
            b"from its first line)\n")


def hexgames(*args: str, stdin: bytes = b"", limited: bool = False) -> tuple[int, str, str]:
    """Exit status, standard output and standard error of ``hexgames ARGS``;
    ``limited``: as a user whom the file modes bind (see the module's docstring)."""
    command = [sys.executable, "-c", "from hexgames.cli import main; main()", *args]
    if limited and os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            pytest.skip("root, and no setpriv to run without CAP_DAC_OVERRIDE")
        command = [setpriv, "--bounding-set", "-dac_override,-dac_read_search", *command]
    done = subprocess.run(command, input=stdin, capture_output=True, timeout=60, check=False)
    return done.returncode, done.stdout.decode(), done.stderr.decode()


def files(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` and its bytes."""
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


@pytest.fixture
def read_only(tmp_path: Path) -> Iterator[Path]:
    """A directory made read-only by the test (its modes given back afterwards, so
    that pytest can remove it)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    yield folder
    folder.chmod(0o755)
    for path in folder.iterdir():
        path.chmod(0o644)


def make_account(db: Path, name: str = "root") -> None:
    status, out, err = hexgames("user", "add", name, "--password-stdin", "--db", str(db),
                                stdin=PASSWORD.encode() + b"\n")
    assert (status, err) == (0, ""), err
    assert out.startswith(f"account {name} made")


# --- user list only reads ---------------------------------------------------------------


@pytest.mark.parametrize(("content", "why"), [
    (b"", "the file is empty"),
    (b"a text file\n", "it is not an SQLite file"),
    (None, "it has no games table"),  # an SQLite file of another program
])
def test_user_list_refuses_a_file_that_is_no_database_and_leaves_it_as_it_was(
        tmp_path: Path, content: bytes | None, why: str) -> None:
    """``user list --db`` opened the file for writing, and a 0-byte file (or another
    program's SQLite file) came out a hexgames database; it said ``no accounts``."""
    db = tmp_path / "other.db"
    if content is None:
        with sqlite3.connect(db) as other:
            other.execute("CREATE TABLE notes (text TEXT)")
        other.close()
    else:
        db.write_bytes(content)
    before = files(tmp_path)
    status, out, err = hexgames("user", "list", "--db", str(db))
    assert (status, out) == (2, "")
    assert err == f"error: {str(db)!r} is not a hexgames games database ({why})\n"
    assert files(tmp_path) == before


@pytest.mark.parametrize("words", [["remove", "root"],
                                   ["reset-password", "root", "--password-stdin"]])
def test_changing_an_account_in_an_empty_file_leaves_it_empty(
        tmp_path: Path, words: list[str]) -> None:
    """``user remove`` and ``reset-password`` on a 0-byte file made it a database (with
    its ``-wal`` and ``-shm`` files) before they said there was no such account."""
    db = tmp_path / "empty.db"
    db.write_bytes(b"")
    status, out, err = hexgames("user", *words, "--db", str(db),
                                stdin=PASSWORD.encode() + b"\n")
    assert (status, out) == (2, "")
    assert err == f"error: {str(db)!r} is not a hexgames games database (the file is empty)\n"
    assert files(tmp_path) == {"empty.db": b""}


def test_user_add_makes_its_database_in_an_empty_file(tmp_path: Path) -> None:
    """An empty file is where ``user add`` may make the database (``touch games.db``),
    once the password is good: a refused password left a database behind."""
    db = tmp_path / "games.db"
    db.write_bytes(b"")
    for stdin in (b"", b"short\n"):
        status, out, _ = hexgames("user", "add", "root", "--password-stdin", "--db",
                                  str(db), stdin=stdin)
        assert (status, out) == (2, "")
        assert files(tmp_path) == {"games.db": b""}
    make_account(db, "root")
    status, out, _ = hexgames("user", "list", "--db", str(db))
    assert status == 0 and out.startswith("root\tadministrator")


def test_user_list_reads_a_database_that_may_not_be_written(read_only: Path) -> None:
    """The store always opened the file for writing: a database in a read-only
    directory could not be listed (SQLite: attempt to write a readonly database)."""
    db = read_only / "games.db"
    make_account(db, "root")
    make_account(db, "alice")
    db.chmod(0o444)
    read_only.chmod(0o555)
    before = files(read_only)
    status, out, err = hexgames("user", "list", "--db", str(db), limited=True)
    assert (status, err) == (0, "")
    assert [line.split("\t")[:2] for line in out.splitlines()] == \
        [["alice", "player"], ["root", "administrator"]]
    assert files(read_only) == before


# --- user add checks where the database goes before it asks for the password -----------


def test_user_add_refuses_a_database_under_a_file_before_the_password(
        tmp_path: Path) -> None:
    """A ``--db`` whose folder is a file: the password was asked for twice, then the
    command said ``[Errno 17] File exists``."""
    (tmp_path / "afile").write_text("not a folder\n")
    for db in (tmp_path / "afile" / "games.db", tmp_path / "afile" / "sub" / "games.db"):
        status, out, err = hexgames("user", "add", "root", "--db", str(db),
                                    stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
        assert (status, out) == (2, "")
        assert err == (f"error: cannot create the games database {str(db)!r}: "
                       f"{str(tmp_path / 'afile')!r} is not a directory\n")


def test_user_add_refuses_a_directory_that_may_not_be_written_before_the_password(
        read_only: Path) -> None:
    read_only.chmod(0o555)
    for db in (read_only / "games.db", read_only / "new" / "games.db"):
        status, out, err = hexgames("user", "add", "root", "--db", str(db), limited=True,
                                    stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
        assert (status, out) == (2, "")
        assert err == (f"error: cannot create the games database {str(db)!r}: the "
                       f"directory {str(read_only)!r} may not be written\n")
    assert files(read_only) == {}


def test_changing_a_database_that_may_not_be_written_is_refused_before_the_password(
        tmp_path: Path) -> None:
    db = tmp_path / "games.db"
    make_account(db)
    db.chmod(0o444)
    try:
        for words in (["add", "alice"], ["reset-password", "root"]):
            status, out, err = hexgames("user", *words, "--db", str(db), limited=True,
                                        stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
            assert (status, out) == (2, ""), words
            assert err == (f"error: cannot write the games database {str(db)!r}: the "
                           "file may not be written\n")
    finally:
        db.chmod(0o644)


# --- the password from standard input ----------------------------------------------------


@pytest.mark.parametrize(("stdin", "where"), [
    (b"", b"standard input is empty"),
    (b"\n" + PASSWORD.encode() + b"\n", b"the first line of standard input is empty"),
])
def test_password_stdin_without_a_password_says_none_was_given(
        tmp_path: Path, stdin: bytes, where: bytes) -> None:
    """It said ``a password has at least 8 characters``."""
    db = tmp_path / "games.db"
    status, out, err = hexgames("user", "add", "root", "--password-stdin", "--db", str(db),
                                stdin=stdin)
    assert (status, out) == (2, "")
    assert err.encode() == NO_STDIN.replace(b"{where}", where)
    assert not db.exists()


@pytest.mark.parametrize(("stdin", "err"), [
    (f"{PASSWORD}\nsomething else\n",
     "Password: \nRepeat for confirmation: \n"
     "error: the two passwords entered differ; nothing was changed\n"),
    ("", "Password: \nerror: no password: standard input ended at the prompt (pipe one "
         "line with --password-stdin)\n"),
    (f"{PASSWORD}\n{PASSWORD}\n", "Password: \nRepeat for confirmation: \n"),
])
def test_piped_prompts_end_their_line(tmp_path: Path, stdin: str, err: str) -> None:
    """From a pipe nothing echoes the answer's line end: the prompts and the error
    shared one line (``Password: Repeat for confirmation: error: ...``)."""
    db = tmp_path / "games.db"
    status, out, got = hexgames("user", "add", "root", "--db", str(db),
                                stdin=stdin.encode())
    assert got == err
    made = stdin.count(PASSWORD) == 2
    assert (status, out) == ((0, "account root made (administrator)\n") if made
                             else (2, ""))


# --- what --db may name ------------------------------------------------------------------


def another_programs_database(db: Path) -> None:
    """An SQLite file of another program: a table of its own, no games table."""
    with sqlite3.connect(db) as other:
        other.execute("CREATE TABLE notes (text TEXT)")
        other.execute("INSERT INTO notes VALUES ('not a game')")
    other.close()


@pytest.mark.parametrize("words", [["add", "alice", "--password-stdin"],
                                   ["reset-password", "root", "--password-stdin"],
                                   ["remove", "root"]])
def test_changing_accounts_leaves_the_database_of_another_program_as_it_was(
        tmp_path: Path, words: list[str]) -> None:
    """Opened for writing, another program's SQLite file was taken for an unversioned
    database of hexgames 0.1 and given the games, users, sessions, challenges and
    ratings tables (``user remove`` then said there is no account root; ``user add``
    made one); ``hexgames serve --db`` did the same."""
    from hexgames.web.store import GameStore, StoreError

    db = tmp_path / "notes.db"
    another_programs_database(db)
    before = files(tmp_path)
    status, out, err = hexgames("user", *words, "--db", str(db),
                                stdin=f"{PASSWORD}\n".encode())
    assert (status, out) == (2, "")
    assert err == f"error: {str(db)!r} is not a hexgames games database (it has no games " \
                  "table)\n"
    assert files(tmp_path) == before
    with pytest.raises(StoreError, match="is not a hexgames games database"):
        GameStore(db)
    assert files(tmp_path) == before



def test_a_database_locked_by_another_program_is_one_error_line(tmp_path: Path) -> None:
    """``user remove``, ``reset-password`` and ``add`` of a database whose write lock
    another program held ended in a StoreBusyError traceback (exit status 1) once the
    wait for the lock was over."""
    from hexgames.limits import STORE_BUSY_TIMEOUT

    db = tmp_path / "games.db"
    make_account(db)
    holder = sqlite3.connect(db, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")
    try:
        for words in (["remove", "root"], ["reset-password", "root", "--password-stdin"],
                      ["add", "alice", "--password-stdin"]):
            status, out, err = hexgames("user", *words, "--db", str(db),
                                        stdin=f"{PASSWORD}\n".encode())
            assert (status, out) == (2, ""), words
            assert err == (f"error: the games database {str(db)!r} is locked by another "
                           f"program (waited {STORE_BUSY_TIMEOUT:g} s): nothing was saved, "
                           "try again\n")
    finally:
        holder.execute("ROLLBACK")
        holder.close()
    status, out, err = hexgames("user", "list", "--db", str(db))
    assert (status, err) == (0, "")
    assert [line.split("\t")[:2] for line in out.splitlines()] == [["root", "administrator"]]


@pytest.mark.parametrize("words", [["list"], ["add", "root"], ["reset-password", "root"],
                                   ["remove", "root"]])
def test_a_path_that_cannot_be_looked_up_is_one_error_line_before_the_password(
        read_only: Path, words: list[str]) -> None:
    """A ``--db`` name longer than the file system takes, or one in a directory that may
    not be searched: looking the file up raised an OSError, printed as a traceback."""
    long_name = read_only / ("x" * 300 + ".db")
    status, out, err = hexgames("user", *words, "--db", str(long_name),
                                stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
    assert (status, out) == (2, "")
    assert err == f"error: cannot open the games database {str(long_name)!r}: File name " \
                  "too long\n"
    db = read_only / "games.db"
    make_account(db)
    read_only.chmod(0o600)  # no search (x) permission: nothing in it can be looked up
    status, out, err = hexgames("user", *words, "--db", str(db), limited=True,
                                stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
    assert (status, out) == (2, "")
    assert err == f"error: cannot open the games database {str(db)!r}: Permission denied\n"



def test_user_list_says_what_it_cannot_read(read_only: Path) -> None:
    """A directory as ``--db`` was "disk I/O error"; a file that may not be read
    "unable to open database file"."""
    status, out, err = hexgames("user", "list", "--db", str(read_only))
    assert (status, out) == (2, "")
    assert err == f"error: cannot open the games database {str(read_only)!r}: it is a " \
                  "directory\n"
    db = read_only / "games.db"
    make_account(db)
    db.chmod(0o200)
    status, out, err = hexgames("user", "list", "--db", str(db), limited=True)
    assert (status, out) == (2, "")
    assert err == f"error: cannot read the games database {str(db)!r}: the file may not " \
                  "be read\n"


@pytest.mark.parametrize("words", [["reset-password", "root", "--password-stdin"],
                                   ["remove", "root"]])
def test_a_change_that_fails_half_way_changes_nothing(tmp_path: Path,
                                                      words: list[str]) -> None:
    """The password (or the account) was written in one statement and the account's
    logins ended in another: when the second failed, the command said it failed while
    the password was changed and the logins lived on (the account was gone, its logins
    and challenges left)."""
    db = tmp_path / "games.db"
    make_account(db)
    with sqlite3.connect(db) as conn:
        conn.execute("INSERT INTO sessions (token, user_id, created, expires) "
                     "VALUES ('t', 1, 0, 1e12)")
        conn.execute("CREATE TRIGGER full BEFORE DELETE ON sessions "
                     "BEGIN SELECT RAISE(ABORT, 'the disk is full'); END")
        before = conn.execute("SELECT * FROM users").fetchall()
    conn.close()
    status, out, err = hexgames("user", *words, "--db", str(db),
                                stdin=b"another good password\n")
    assert (status, out) == (2, "")
    assert err == f"error: games database {str(db)!r}: the disk is full\n"
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT * FROM users").fetchall() == before
        assert conn.execute("SELECT token FROM sessions").fetchall() == [("t",)]
    conn.close()


@pytest.mark.parametrize("words", [["list"], ["add", "root", "--password-stdin"],
                                   ["reset-password", "root", "--password-stdin"],
                                   ["remove", "root"]])
def test_a_database_that_is_no_regular_file_is_refused(tmp_path: Path,
                                                       words: list[str]) -> None:
    """A FIFO as ``--db``: ``user list`` waited for ever for a program to write it (the
    read-only open blocks), the others said "disk I/O error"; a device (a copy of
    /dev/null) said the same, and ``user add`` left a ``-journal`` file beside it."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    paths = [fifo]
    try:
        os.mknod(tmp_path / "null", 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        paths.append(tmp_path / "null")
    except PermissionError:  # only root may make a device
        pass
    before = {path.name for path in tmp_path.iterdir()}
    for db in paths:
        status, out, err = hexgames("user", *words, "--db", str(db),
                                    stdin=f"{PASSWORD}\n".encode())
        assert (status, out) == (2, "")
        assert err == f"error: cannot open the games database {str(db)!r}: it is not a " \
                      "regular file\n"
    assert {path.name for path in tmp_path.iterdir()} == before


@pytest.mark.parametrize("words", [["list"], ["add", "root"], ["reset-password", "root"],
                                   ["remove", "root"]])
def test_a_loop_of_links_is_named_as_one(tmp_path: Path, words: list[str]) -> None:
    """``user remove`` and ``reset-password`` said there was no database at a symbolic
    link in a loop of them, where ``user add`` named the loop."""
    loop = tmp_path / "loop.db"
    loop.symlink_to("loop.db")
    status, out, err = hexgames("user", *words, "--db", str(loop),
                                stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
    assert (status, out) == (2, "")
    assert err == f"error: cannot open the games database {str(loop)!r}: it is a symbolic " \
                  "link in a loop of them\n"
    assert loop.is_symlink() and sorted(tmp_path.iterdir()) == [loop]


@pytest.mark.parametrize("words", [["list"], ["add", "root"], ["remove", "root"]])
@pytest.mark.parametrize("end", ["/", "/.", "//", "/.."])
def test_a_db_path_of_a_folder_is_refused(tmp_path: Path, words: list[str],
                                          end: str) -> None:
    """``--db games.db/`` and ``games.db/.`` were taken as ``games.db`` (the ending
    dropped)."""
    db = tmp_path / "games.db"
    make_account(db)
    before = files(tmp_path)
    status, out, err = hexgames("user", *words, "--db", f"{db}{end}",
                                stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
    assert (status, out) == (2, "")
    assert err == f"error: --db names a folder, not a file: {str(db) + end!r}\n"
    assert files(tmp_path) == before


def test_user_add_refuses_a_folder_that_is_a_link_to_nothing_before_the_password(
        tmp_path: Path) -> None:
    """``--db dangling/games.db``, the folder a link to nothing or in a loop of links:
    the password was asked for, then the command said ``[Errno 17] File exists``."""
    (tmp_path / "dangling").symlink_to("nowhere")
    (tmp_path / "loop").symlink_to("loop")
    dangling, loop = tmp_path / "dangling" / "games.db", tmp_path / "loop" / "games.db"
    for db, err in [
        (dangling, f"error: cannot create the games database {str(dangling)!r}: "
                   f"{str(tmp_path / 'dangling')!r} is a symbolic link to nothing\n"),
        (loop, f"error: cannot open the games database {str(loop)!r}: a folder on its "
               "way is a symbolic link in a loop of them\n"),
    ]:
        status, out, got = hexgames("user", "add", "root", "--db", str(db),
                                    stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
        assert (status, out, got) == (2, "", err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dangling", "loop"]


def test_memory_is_a_file_not_sqlites_database_in_memory(tmp_path: Path) -> None:
    """``--db :memory:`` made the account in SQLite's database in memory, lost at once,
    and said it was made."""
    done = subprocess.run(
        [sys.executable, "-c", "from hexgames.cli import main; main()", "user", "add",
         "root", "--password-stdin", "--db", ":memory:"],
        input=f"{PASSWORD}\n".encode(), capture_output=True, timeout=60, check=False,
        cwd=tmp_path)
    assert (done.returncode, done.stderr) == (0, b""), done.stderr
    assert (tmp_path / ":memory:").is_file()
    status, out, _ = hexgames("user", "list", "--db", str(tmp_path / ":memory:"))
    assert status == 0 and out.startswith("root\tadministrator")


def test_a_path_with_a_line_break_is_one_error_line() -> None:
    """A ``--db`` holding a line break was printed as it is, on two lines."""
    status, out, err = hexgames("user", "list", "--db", "no-such\nfolder/games.db")
    assert (status, out) == (2, "")
    assert err == "error: there is no database at no-such\\nfolder/games.db\n"


def test_user_add_refuses_a_link_to_nothing_it_cannot_make_before_the_password(
        tmp_path: Path) -> None:
    """A symbolic link in a loop, or to a file in a missing folder: the password was
    asked for twice, then the command said "unable to open database file". A link to
    a file that can be made is followed, as SQLite does."""
    loop, dangling, good = tmp_path / "loop.db", tmp_path / "dangling.db", tmp_path / "good.db"
    loop.symlink_to("loop.db")
    dangling.symlink_to("missing/games.db")
    good.symlink_to("made.db")
    for db, err in [
        (loop, f"error: cannot open the games database {str(loop)!r}: it is a symbolic "
               "link in a loop of them\n"),
        (dangling, f"error: cannot create the games database {str(dangling)!r}: it is a "
                   f"symbolic link to {str(tmp_path / 'missing' / 'games.db')!r}, whose "
                   f"folder {str(tmp_path / 'missing')!r} does not exist\n"),
    ]:
        status, out, got = hexgames("user", "add", "root", "--db", str(db),
                                    stdin=f"{PASSWORD}\n{PASSWORD}\n".encode())
        assert (status, out, got) == (2, "", err)
    make_account(good)
    assert (tmp_path / "made.db").is_file() and good.is_symlink()


@pytest.mark.parametrize(("name", "shown"), [("", "''"), ("a b", "'a b'"), ("o\tk", "'o\\tk'"),
                                           ("o'k", '"o\'k"')])
def test_a_bad_account_name_is_quoted_before_the_password(tmp_path: Path, name: str,
                                                          shown: str) -> None:
    """``user add ''`` said ": a name is a letter, ...", naming nothing."""
    status, out, err = hexgames("user", "add", name, "--db", str(tmp_path / "games.db"))
    assert (status, out) == (2, "")
    assert err == (f"error: account name {shown}: a name is a letter, then letters, "
                   "digits, _ or - (A to Z, 0 to 9; no spaces)\n")
    assert not (tmp_path / "games.db").exists()


def test_names_are_read_alike_by_every_command(tmp_path: Path) -> None:
    """``user add ' bob'`` made bob, but ``user remove ' bob'`` said there is no account
    ' bob'; ``user add ALICE`` said ALICE is taken without naming alice."""
    db = tmp_path / "games.db"
    status, out, err = hexgames("user", "add", " bob\t", "--password-stdin", "--db", str(db),
                                stdin=PASSWORD.encode() + b"\n")
    assert (status, out, err) == (0, "account bob made (administrator)\n", "")
    assert hexgames("user", "list", "--db", str(db))[1].startswith("bob\tadministrator")
    status, out, err = hexgames("user", "add", "BOB", "--password-stdin", "--db", str(db),
                                stdin=PASSWORD.encode() + b"\n")
    assert (status, out, err) == (2, "", "error: the name BOB is taken: account bob has it "
                                         "(names ignore letter case)\n")
    status, out, err = hexgames("user", "reset-password", " bob ", "--password-stdin",
                                "--db", str(db), stdin=b"another password\n")
    assert (status, err) == (0, "") and out.startswith("the password of bob is changed")
    status, out, err = hexgames("user", "remove", "\tBob", "--db", str(db))
    assert (status, out) == (0, "account bob removed\n")
    assert err.startswith("note: no administrator is left")
    status, out, err = hexgames("user", "remove", "o'k", "--db", str(db))
    assert (status, out, err) == (2, "", "error: there is no account \"o'k\"\n")


def test_removing_the_last_administrator_says_so(tmp_path: Path) -> None:
    """The only administrator was removed without a word, leaving none (a later
    ``user add`` makes a player: only the first account is made an administrator)."""
    db = tmp_path / "games.db"
    make_account(db, "alice")
    make_account(db, "bob")
    assert hexgames("user", "remove", "bob", "--db", str(db)) == (0, "account bob removed\n",
                                                                 "")
    assert hexgames("user", "remove", "ALICE", "--db", str(db)) == (
        0, "account alice removed\n",
        "note: no administrator is left; make one with 'hexgames user add NAME --admin'\n")
