//! Unit tests of the process runner: deadlines, pipes, a JSON-RPC conversation.
#![allow(clippy::print_stderr)] // a skipped case says why

use super::*;

/// A test child: `sh -c SCRIPT`. The runner itself never uses a shell; tests use one only to
/// script a misbehaving program.
fn sh(script: &str, stdin: &[u8], timeout_ms: u64, idle_ms: u64) -> Finished {
    run(Invocation {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: vec![("GREETING".into(), "hi".into())],
        env_remove: vec!["CLAUDECODE".into()],
        cwd: None,
        stdin: stdin.to_vec(),
        timeout: Duration::from_millis(timeout_ms),
        idle_timeout: Duration::from_millis(idle_ms),
        watch: None,
        heartbeat: None,
    })
    .unwrap()
}

fn run(inv: Invocation) -> Result<Finished> {
    Call::spawn(&inv)?.wait()
}

#[test]
fn a_large_prompt_on_stdin_does_not_deadlock() {
    // The child echoes 10 MB back while we are still writing it.
    let prompt = vec![b'x'; 10 << 20];
    let f = sh("cat", &prompt, 60_000, 60_000);
    assert!(matches!(f.ending, Ending::Exited(s) if s.success()));
    assert_eq!(f.stdout.len() + f.dropped, prompt.len());
    assert!(f.stdout.len() <= MAX_CAPTURE);
}

#[test]
fn exit_codes_stderr_and_environment_reach_us() {
    let f = sh(
        "echo \"$GREETING ${CLAUDECODE:-unset}\"; echo oops >&2; exit 3",
        b"",
        10_000,
        10_000,
    );
    assert!(matches!(f.ending, Ending::Exited(s) if s.code() == Some(3)));
    assert_eq!(String::from_utf8_lossy(&f.stdout), "hi unset\n");
    assert_eq!(String::from_utf8_lossy(&f.stderr), "oops\n");
}

#[test]
fn wall_clock_timeout_kills_the_whole_group() {
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("grandchild-wrote");
    // A grandchild that would write a file after 2 s, and a parent that keeps printing.
    let script = format!(
        "(sleep 2; touch {}) & while true; do echo tick; sleep 0.1; done",
        marker.display()
    );
    let f = sh(&script, b"", 500, 10_000);
    assert_eq!(f.ending, Ending::TimedOut);
    assert!(f.duration < Duration::from_secs(2), "{:?}", f.duration);
    std::thread::sleep(Duration::from_millis(2500));
    assert!(!marker.exists(), "a grandchild survived the timeout");
}

#[test]
fn silence_trips_the_idle_timeout() {
    let f = sh("echo started; sleep 30", b"", 20_000, 300);
    assert_eq!(f.ending, Ending::Idle);
    assert_eq!(String::from_utf8_lossy(&f.stdout), "started\n");
    assert!(f.duration < Duration::from_secs(5));
}

#[test]
fn a_child_left_writing_after_its_parent_exits_is_killed() {
    // The parent exits at once; its background child holds stdout open and keeps writing.
    let f = sh(
        "(while true; do echo late; sleep 0.1; done) & echo answer",
        b"",
        20_000,
        10_000,
    );
    // The parent's exit counts, its straggler is killed after a short grace, and we do not
    // wait for the deadline.
    assert!(
        matches!(f.ending, Ending::Exited(s) if s.success()),
        "{:?}",
        f.ending
    );
    assert!(f.duration < Duration::from_secs(5), "{:?}", f.duration);
    assert!(String::from_utf8_lossy(&f.stdout)
        .lines()
        .any(|l| l == "answer"));
}

/// Answers `A:hello` with `world` and is done at `B:world`.
struct Echo {
    heard: Vec<String>,
}

impl Talk for Echo {
    fn open(&mut self) -> Vec<u8> {
        b"hello\n".to_vec()
    }
    fn hear(&mut self, line: &[u8]) -> Vec<u8> {
        self.heard.push(String::from_utf8_lossy(line).into_owned());
        if line == b"A:hello" {
            b"world\n".to_vec()
        } else {
            Vec::new()
        }
    }
    fn done(&self) -> bool {
        self.heard.iter().any(|l| l == "B:world")
    }
}

#[test]
fn a_conversation_is_answered_line_by_line_and_stopped_when_over() {
    let mut talk = Echo { heard: Vec::new() };
    let f = Call::spawn(&Invocation {
        program: "sh".into(),
        // It would sleep on after the conversation: the runner stops it.
        args: vec![
            "-c".into(),
            "read a; echo \"A:$a\"; read b; echo \"B:$b\"; sleep 30".into(),
        ],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_secs(20),
        idle_timeout: Duration::from_secs(20),
        watch: None,
        heartbeat: None,
    })
    .unwrap()
    .talk(&mut talk)
    .unwrap();
    assert_eq!(talk.heard, ["A:hello", "B:world"]);
    assert_eq!(f.ending, Ending::Concluded);
    // Heard lines are not kept a second time.
    assert!(f.stdout.is_empty());
    assert!(f.duration < Duration::from_secs(10), "{:?}", f.duration);
}

#[test]
fn a_missing_program_is_an_error_naming_it() {
    let e = run(Invocation {
        program: "/nonexistent/agent-cli".into(),
        args: vec![],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_secs(1),
        idle_timeout: Duration::from_secs(1),
        watch: None,
        heartbeat: None,
    })
    .unwrap_err();
    assert!(e.to_string().contains("/nonexistent/agent-cli"));
}

#[test]
fn a_child_that_closed_its_pipes_is_reaped_as_soon_as_it_exits() {
    // Its output closes first and it exits a little later: the exit itself must wake us (a
    // pidfd), not the next tick of a sleep. Counted, not timed, so a loaded machine cannot make
    // it pass or fail.
    let pidfd = rustix::process::pidfd_open(
        rustix::process::getpid(),
        rustix::process::PidfdFlags::empty(),
    )
    .is_ok();
    let f = sh("exec >&- 2>&-; sleep 0.2", b"", 20_000, 20_000);
    assert!(
        matches!(f.ending, Ending::Exited(s) if s.success()),
        "{:?}",
        f.ending
    );
    if pidfd {
        assert_eq!(f.blind_pauses, 0, "slept instead of waiting on the exit");
    } else {
        eprintln!("skipped the pidfd case: this kernel has no pidfd_open");
        assert!(f.blind_pauses > 0);
    }
}

#[test]
fn a_child_killed_by_a_signal_says_which() {
    let f = sh("kill -SEGV $$", b"", 10_000, 10_000);
    assert_eq!(f.ending.signal(), Some(libc::SIGSEGV));
    assert_eq!(crate::sys::signals::name(libc::SIGSEGV), "SIGSEGV");
    assert_eq!(crate::sys::signals::name(99), "signal 99");
}

#[test]
fn kill_stops_the_whole_group_and_wait_reports_the_signal() {
    let call = Call::spawn(&Invocation {
        program: "sh".into(),
        args: vec!["-c".into(), "sleep 30".into()],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_secs(20),
        idle_timeout: Duration::from_secs(20),
        watch: None,
        heartbeat: None,
    })
    .unwrap();
    let pid = call.id();
    call.kill();
    let f = call.wait().unwrap();
    assert_eq!(f.ending.signal(), Some(libc::SIGKILL));
    assert!(f.duration < Duration::from_secs(10), "{:?}", f.duration);
    assert!(!crate::sys::reap::alive(pid));
}

#[test]
fn a_call_dropped_unwaited_leaves_nothing_running() {
    let call = Call::spawn(&Invocation {
        program: "sleep".into(),
        args: vec!["30".into()],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_secs(20),
        idle_timeout: Duration::from_secs(20),
        watch: None,
        heartbeat: None,
    })
    .unwrap();
    let pid = call.id();
    drop(call);
    assert!(!crate::sys::reap::alive(pid));
}

#[test]
fn a_watch_that_sees_a_hopeless_stderr_stops_the_call() {
    let f = run(Invocation {
        program: "sh".into(),
        args: vec!["-c".into(), "echo 'attempt 1 failed' >&2; sleep 30".into()],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_secs(20),
        idle_timeout: Duration::from_secs(20),
        watch: Some(Watch::new(|stderr| stderr.contains("failed"))),
        heartbeat: None,
    })
    .unwrap();
    assert_eq!(f.ending, Ending::GaveUp);
    assert!(f.duration < Duration::from_secs(10), "{:?}", f.duration);
}

/// A test heartbeat: lines that start with "beat".
fn beat(line: &[u8]) -> bool {
    line.starts_with(b"beat")
}

/// [`sh`] with [`beat`] lines dropped from stderr.
fn sh_beating(script: &str, timeout_ms: u64, idle_ms: u64) -> Finished {
    run(Invocation {
        program: "sh".into(),
        args: vec!["-c".into(), script.into()],
        env: vec![],
        env_remove: vec![],
        cwd: None,
        stdin: vec![],
        timeout: Duration::from_millis(timeout_ms),
        idle_timeout: Duration::from_millis(idle_ms),
        watch: None,
        heartbeat: Some(beat),
    })
    .unwrap()
}

#[test]
fn heartbeat_lines_keep_a_call_alive_and_are_not_kept() {
    // Two seconds of stdout silence, four times the idle limit, with a heartbeat every 100 ms.
    let f = sh_beating(
        "echo 'real trouble' >&2; i=0; while [ $i -lt 20 ]; do echo \"beat $i\" >&2; \
         sleep 0.1; i=$((i+1)); done; printf 'no newline' >&2; echo answer",
        20_000,
        500,
    );
    assert!(
        matches!(f.ending, Ending::Exited(s) if s.success()),
        "{f:?}"
    );
    assert_eq!(String::from_utf8_lossy(&f.stdout), "answer\n");
    assert_eq!(
        String::from_utf8_lossy(&f.stderr),
        "real trouble\nno newline"
    );
}

#[test]
fn silence_after_heartbeats_trips_the_idle_timeout() {
    let f = sh_beating("echo beat >&2; echo beat >&2; sleep 30", 20_000, 300);
    assert_eq!(f.ending, Ending::Idle);
    assert!(
        f.stderr.is_empty(),
        "{:?}",
        String::from_utf8_lossy(&f.stderr)
    );
    assert!(f.duration < Duration::from_secs(5));
}

#[test]
fn heartbeat_lines_take_nothing_from_the_capture_cap() {
    // More heartbeat bytes than the whole cap, then an answer: nothing is dropped or kept.
    // Whole "beat\n" lines only.
    let beats = (MAX_CAPTURE + (8 << 20)) / 5 * 5;
    let f = sh_beating(
        &format!("yes beat | head -c {beats} >&2; echo answer"),
        60_000,
        60_000,
    );
    assert!(
        matches!(f.ending, Ending::Exited(s) if s.success()),
        "{f:?}"
    );
    assert_eq!(f.dropped, 0);
    assert!(f.stderr.is_empty());
    assert_eq!(String::from_utf8_lossy(&f.stdout), "answer\n");
}

#[test]
fn a_line_too_long_to_hold_back_is_kept_whole() {
    // Starts like a heartbeat, but no newline comes for 200 KB: it is kept as it comes.
    let f = sh_beating(
        "printf beat >&2; head -c 200000 /dev/zero | tr '\\0' x >&2; echo ' end' >&2; \
         echo beat >&2",
        20_000,
        20_000,
    );
    assert!(
        matches!(f.ending, Ending::Exited(s) if s.success()),
        "{f:?}"
    );
    let kept = String::from_utf8_lossy(&f.stderr);
    assert_eq!(kept.len(), 4 + 200_000 + 5, "{}", &kept[..40]);
    assert!(kept.starts_with("beatxxx") && kept.ends_with("x end\n"));
}
