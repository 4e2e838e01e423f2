//! Issue 20 audit: the terminal UI started with no controlling terminal (`setsid`) on a pty whose
//! other end then closes gets no SIGHUP; it spun for ever on reads that return nothing. It must
//! quit as on a hangup: exit 129, a line on stderr.
#![cfg(unix)]

use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A pty of 100x30: its master (this test's end) and its slave (appdeck's terminal).
fn pty() -> (OwnedFd, OwnedFd) {
    let (mut master, mut slave) = (0, 0);
    let size = libc::winsize {
        ws_row: 30,
        ws_col: 100,
        ws_xpixel: 0,
        ws_ypixel: 0,
    };
    // SAFETY: out-pointers to valid ints and a valid winsize; no name or termios asked for.
    let made = unsafe {
        libc::openpty(
            &raw mut master,
            &raw mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            &raw const size,
        )
    };
    assert_eq!(made, 0, "openpty: {}", std::io::Error::last_os_error());
    for fd in [master, slave] {
        // SAFETY: a descriptor openpty just gave. Close-on-exec: appdeck must not inherit the
        // master, or closing this test's copy would not close the pty.
        assert_eq!(
            unsafe { libc::fcntl(fd, libc::F_SETFD, libc::FD_CLOEXEC) },
            0
        );
    }
    // SAFETY: openpty gave two new descriptors, owned from here on.
    unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) }
}

/// Reads what `fd` has within `millis` into `into`: how many bytes (0 when nothing came).
fn read_within(fd: &OwnedFd, millis: i32, into: &mut Vec<u8>) -> std::io::Result<usize> {
    let mut ready = libc::pollfd {
        fd: fd.as_raw_fd(),
        events: libc::POLLIN,
        revents: 0,
    };
    // SAFETY: one valid pollfd, for the length given.
    if unsafe { libc::poll(&raw mut ready, 1, millis) } <= 0 {
        return Ok(0);
    }
    let mut buffer = [0u8; 4096];
    // SAFETY: a valid buffer of the length given; `fd` is open.
    let n = unsafe { libc::read(fd.as_raw_fd(), buffer.as_mut_ptr().cast(), buffer.len()) };
    let n = usize::try_from(n).map_err(|_| std::io::Error::last_os_error())?;
    into.extend_from_slice(&buffer[..n]);
    Ok(n)
}

#[test]
fn the_terminal_ui_quits_when_its_terminal_goes_away_without_a_signal() {
    let dir = tempfile::tempdir().unwrap();
    let (master, slave) = pty();
    let stderr = std::fs::File::create(dir.path().join("stderr")).unwrap();
    let mut command = Command::new(env!("CARGO_BIN_EXE_appdeck"));
    command
        .arg("--demo")
        .env_clear()
        .env("HOME", dir.path())
        .env("APPDECK_CONFIG", dir.path().join("config.toml"))
        .env("APPDECK_DATA_DIR", dir.path().join("data"))
        .env("TERM", "xterm-256color")
        .stdin(Stdio::from(slave.try_clone().unwrap()))
        .stdout(Stdio::from(slave))
        .stderr(Stdio::from(stderr));
    // SAFETY: setsid is async-signal-safe. A new session with no controlling terminal: closing
    // the pty sends appdeck no SIGHUP.
    unsafe {
        command.pre_exec(|| {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = command.spawn().expect("appdeck starts");
    drop(command); // this test keeps no descriptor of the slave

    // The screen is read as it comes (a full pty would stop appdeck), on this thread: a reader
    // elsewhere would hold the pty open. The demo's first rows (under their headings) mean the
    // terminal UI is up and reading its input.
    let mut screen = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(30);
    while !String::from_utf8_lossy(&screen).contains("EXTERNAL ID") {
        if Instant::now() > deadline || read_within(&master, 100, &mut screen).is_err() {
            let _ = child.kill();
            panic!(
                "no rows on the screen: {:?}",
                String::from_utf8_lossy(&screen)
            );
        }
    }
    // Whatever is still being drawn is read before the pty closes, so that the close, not a
    // failed write, is what appdeck meets: the screen has been quiet for a moment.
    while read_within(&master, 300, &mut screen).is_ok_and(|n| n > 0) {}

    drop(master);
    let deadline = Instant::now() + Duration::from_secs(15);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("appdeck did not quit when its terminal went away");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let said = std::fs::read_to_string(dir.path().join("stderr")).unwrap();
    assert_eq!(status.code(), Some(129), "as on a hangup; stderr: {said}");
    assert!(
        said.contains("appdeck: the terminal went away"),
        "stderr: {said}"
    );
}
