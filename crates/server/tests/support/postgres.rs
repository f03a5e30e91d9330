//! A throwaway PostgreSQL cluster for the tests, one per test process.
//!
//! `initdb` and `pg_ctl` from Debian's `postgresql` package make and start it
//! as a non-root user (PostgreSQL refuses root), on a free loopback port, with
//! durability off (it is thrown away). Each test gets a database of its own.
//! A watchdog shell holds the read end of a pipe whose write end this process
//! keeps: when the process ends, however it ends, the watchdog stops the
//! cluster and deletes it.
//!
//! `PLATEAU_TEST_POSTGRES=postgres://user@host:port` uses a running server
//! instead (the user must be allowed to create databases).
//!
//! Without PostgreSQL the tests that need it say so loudly and pass, except
//! under `CI=true`, where a missing PostgreSQL fails them.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};
use tokio_postgres::NoTls;

struct Cluster {
    /// `postgres://user@host:port`, without a database.
    base: String,
    /// The watchdog: its stdin closes when this process ends.
    _watchdog: Mutex<Option<Child>>,
}

static CLUSTER: OnceLock<Result<Cluster, String>> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty database's URL, or `None` (after a loud message) where no
/// PostgreSQL can be had outside CI.
pub async fn fresh_database(name: &str) -> Option<String> {
    let cluster = match CLUSTER.get_or_init(start) {
        Ok(cluster) => cluster,
        Err(why) => {
            if std::env::var("CI").is_ok_and(|v| v == "true") {
                panic!("CI=true and no PostgreSQL for the tests: {why}");
            }
            eprintln!(
                "\n*** SKIPPED: PostgreSQL tests ({name}): {why}\n\
                 *** install Debian's postgresql package, or set PLATEAU_TEST_POSTGRES\n"
            );
            return None;
        }
    };
    let n = DATABASES.fetch_add(1, Ordering::SeqCst);
    let database: String = format!("t{}_{n}_{name}", std::process::id())
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .take(60)
        .collect();
    let (client, connection) =
        tokio_postgres::connect(&format!("{}/postgres", cluster.base), NoTls)
            .await
            .expect("the test cluster accepts connections");
    let driver = tokio::spawn(connection);
    client
        .batch_execute(&format!("CREATE DATABASE {database}"))
        .await
        .expect("a test database can be created");
    drop(client);
    let _ = driver.await;
    Some(format!("{}/{database}", cluster.base))
}

fn start() -> Result<Cluster, String> {
    if let Ok(base) = std::env::var("PLATEAU_TEST_POSTGRES") {
        return Ok(Cluster {
            base: base.trim_end_matches('/').to_string(),
            _watchdog: Mutex::new(None),
        });
    }
    let bin = binaries()
        .ok_or("no initdb, pg_ctl and postgres found (in PATH or /usr/lib/postgresql/*/bin)")?;
    let user = RunAs::pick()?;
    let dir = std::env::temp_dir().join(format!("plateau-test-pg-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    user.own(&dir)?;
    let data = dir.join("data");
    let output = user
        .command(&bin.join("initdb"))
        .args(["-D"])
        .arg(&data)
        .args([
            "-U",
            "plateau",
            "--auth=trust",
            "-E",
            "UTF8",
            "--no-sync",
            "--no-instructions",
        ])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("initdb: {e}"))?;
    if !output.status.success() {
        return Err(format!(
            "initdb failed: {}",
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    // A free port: bind, read, let go (a clash only fails the start loudly).
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map_err(|e| format!("no free port: {e}"))?
        .port();
    let options = format!(
        "-p {port} -c listen_addresses=127.0.0.1 -k {} -c fsync=off -c synchronous_commit=off \
         -c full_page_writes=off -c max_connections=400 -c shared_buffers=64MB",
        dir.display()
    );
    let log = dir.join("server.log");
    let output = user
        .command(&bin.join("pg_ctl"))
        .arg("-D")
        .arg(&data)
        .args(["-o", &options, "-l"])
        .arg(&log)
        .args(["-w", "-t", "60", "start"])
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("pg_ctl: {e}"))?;
    if !output.status.success() {
        let log = std::fs::read_to_string(&log).unwrap_or_default();
        return Err(format!(
            "pg_ctl start failed: {} {}",
            String::from_utf8_lossy(&output.stderr).trim(),
            log.trim()
        ));
    }
    let script = format!(
        "read _ignored; '{}' -D '{}' -m immediate stop >/dev/null 2>&1; rm -rf '{}'",
        bin.join("pg_ctl").display(),
        data.display(),
        dir.display()
    );
    let mut watchdog = user
        .command(Path::new("/bin/sh"))
        .args(["-c", &script])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("watchdog: {e}"))?;
    // Nothing is ever written: the pipe only has to close.
    if let Some(stdin) = watchdog.stdin.as_mut() {
        let _ = stdin.flush();
    }
    Ok(Cluster {
        base: format!("postgres://plateau@127.0.0.1:{port}"),
        _watchdog: Mutex::new(Some(watchdog)),
    })
}

/// The directory with `initdb`, `pg_ctl` and `postgres`: Debian keeps them
/// out of PATH, under /usr/lib/postgresql/VERSION/bin.
fn binaries() -> Option<PathBuf> {
    let mut candidates: Vec<PathBuf> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .map(|entry| entry.path().join("bin"))
        .collect();
    // The newest version first.
    candidates.sort_by_key(|path| {
        std::cmp::Reverse(
            path.parent()
                .and_then(|v| v.file_name())
                .and_then(|v| v.to_str())
                .and_then(|v| v.parse::<u32>().ok())
                .unwrap_or(0),
        )
    });
    if let Some(path) = std::env::var_os("PATH") {
        candidates.extend(std::env::split_paths(&path));
    }
    candidates.into_iter().find(|dir| {
        ["initdb", "pg_ctl", "postgres"]
            .iter()
            .all(|tool| dir.join(tool).is_file())
    })
}

/// The non-root user the cluster runs as (this process's own, unless root).
struct RunAs {
    ids: Option<(libc::uid_t, libc::gid_t)>,
}

impl RunAs {
    fn pick() -> Result<RunAs, String> {
        // SAFETY: getuid has no preconditions.
        if unsafe { libc::getuid() } != 0 {
            return Ok(RunAs { ids: None });
        }
        for name in [c"postgres", c"nobody"] {
            // SAFETY: a valid C string; the result is read at once, before
            // any other passwd call.
            let entry = unsafe { libc::getpwnam(name.as_ptr()) };
            if !entry.is_null() {
                // SAFETY: non-null, as returned by getpwnam.
                let (uid, gid) = unsafe { ((*entry).pw_uid, (*entry).pw_gid) };
                if uid != 0 {
                    return Ok(RunAs {
                        ids: Some((uid, gid)),
                    });
                }
            }
        }
        Err("running as root and no postgres or nobody user to run PostgreSQL as".into())
    }

    fn own(&self, dir: &Path) -> Result<(), String> {
        if let Some((uid, gid)) = self.ids {
            std::os::unix::fs::chown(dir, Some(uid), Some(gid))
                .map_err(|e| format!("chown {}: {e}", dir.display()))?;
        }
        Ok(())
    }

    fn command(&self, program: &Path) -> Command {
        let mut command = Command::new(program);
        if let Some((uid, gid)) = self.ids {
            // As root, std also drops the supplementary groups.
            command.uid(uid).gid(gid);
            command.current_dir("/");
        }
        command
    }
}
