//! A small Chrome DevTools Protocol client: launches the system's Chromium
//! headless, opens pages in separate browser contexts (separate storage, like
//! separate people), evaluates JavaScript, clicks with real mouse events, types
//! keys and takes screenshots. Blocking and single-threaded on purpose: the
//! tests read like a person's actions, one after the other.

use base64::Engine as _;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::io::{BufRead, BufReader};
use std::net::TcpStream;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::rc::Rc;
use std::sync::mpsc;
use std::time::{Duration, Instant};
use tungstenite::{Message, WebSocket};

/// Longest a single protocol command may take.
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);

/// The flags the brief asks for (no network beyond loopback, no sandbox in
/// containers), plus no throttling of pages that are not in front.
const FLAGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-background-timer-throttling",
    "--disable-renderer-backgrounding",
    "--disable-backgrounding-occluded-windows",
    "--disable-dev-shm-usage",
    "--disable-crash-reporter",
    "--disable-breakpad",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
];

/// The Chromium to run: `$PLATEAU_CHROMIUM`, else the first of the usual
/// names on the PATH.
pub fn find_chromium() -> Option<PathBuf> {
    if let Some(path) = std::env::var_os("PLATEAU_CHROMIUM") {
        return Some(PathBuf::from(path));
    }
    let names = [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ];
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

struct Connection {
    socket: WebSocket<TcpStream>,
    next_id: u64,
    /// JavaScript errors seen on any page: (session, description).
    errors: Vec<(String, String)>,
    /// Requests under way, by request id: (session, what), for failure reports.
    requests: std::collections::HashMap<String, (String, String)>,
}

impl Connection {
    fn send(
        &mut self,
        session: Option<&str>,
        method: &str,
        params: Value,
    ) -> Result<Value, String> {
        self.next_id += 1;
        let id = self.next_id;
        let mut message = json!({ "id": id, "method": method, "params": params });
        if let Some(session) = session {
            message["sessionId"] = json!(session);
        }
        self.socket
            .send(Message::text(message.to_string()))
            .map_err(|e| format!("{method}: cannot send: {e}"))?;
        let deadline = Instant::now() + COMMAND_TIMEOUT;
        loop {
            if Instant::now() > deadline {
                return Err(format!("{method}: no answer within {COMMAND_TIMEOUT:?}"));
            }
            let text = match self.socket.read() {
                Ok(Message::Text(text)) => text.to_string(),
                Ok(_) => continue,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                Err(e) => return Err(format!("{method}: connection to the browser: {e}")),
            };
            let Ok(value) = serde_json::from_str::<Value>(&text) else {
                continue;
            };
            if value["id"].as_u64() == Some(id) {
                if let Some(error) = value.get("error") {
                    return Err(format!("{method}: {error}"));
                }
                return Ok(value["result"].clone());
            }
            self.note_event(&value);
        }
    }

    fn note_event(&mut self, event: &Value) {
        let session = event["sessionId"].as_str().unwrap_or("").to_string();
        match event["method"].as_str() {
            Some("Runtime.exceptionThrown") => {
                let details = &event["params"]["exceptionDetails"];
                let text = details["exception"]["description"]
                    .as_str()
                    .or(details["text"].as_str())
                    .unwrap_or("an exception")
                    .to_string();
                self.errors.push((session, text));
            }
            Some("Runtime.consoleAPICalled") if event["params"]["type"] == "error" => {
                let args: Vec<String> = event["params"]["args"]
                    .as_array()
                    .map(|a| {
                        a.iter()
                            .map(|v| v["value"].to_string().trim_matches('"').to_string())
                            .collect()
                    })
                    .unwrap_or_default();
                self.errors
                    .push((session, format!("console.error: {}", args.join(" "))));
            }
            // Security (a Content-Security-Policy refusal) and script problems
            // the page did not throw; network refusals (a 422 for an illegal
            // move) are part of playing and not errors.
            Some("Log.entryAdded")
                if event["params"]["entry"]["level"] == "error"
                    && event["params"]["entry"]["source"] != "network" =>
            {
                let entry = &event["params"]["entry"];
                self.errors.push((
                    session,
                    format!(
                        "{}: {}",
                        entry["source"].as_str().unwrap_or("log"),
                        entry["text"].as_str().unwrap_or("")
                    ),
                ));
            }
            Some("Network.requestWillBeSent") => {
                let params = &event["params"];
                let what = format!(
                    "{} {}",
                    params["request"]["method"].as_str().unwrap_or("?"),
                    params["request"]["url"].as_str().unwrap_or("?")
                );
                if let Some(id) = params["requestId"].as_str() {
                    self.requests.insert(id.to_string(), (session, what));
                }
            }
            Some("Network.responseReceived") => {
                let params = &event["params"];
                if let Some(entry) = params["requestId"]
                    .as_str()
                    .and_then(|id| self.requests.get_mut(id))
                {
                    entry.1 += &format!(" -> {}", params["response"]["status"]);
                }
            }
            Some("Network.loadingFinished" | "Network.loadingFailed") => {
                if let Some(id) = event["params"]["requestId"].as_str() {
                    self.requests.remove(id);
                }
            }
            _ => {}
        }
    }
}

/// A running headless Chromium.
pub struct Browser {
    child: Child,
    connection: Rc<RefCell<Connection>>,
    profile: PathBuf,
}

impl Browser {
    /// Starts `binary` with a fresh profile and connects to it.
    pub fn launch(binary: &Path) -> Result<Browser, String> {
        let profile = std::env::temp_dir().join(format!(
            "plateau-chromium-{}-{}",
            std::process::id(),
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        ));
        std::fs::create_dir_all(&profile).map_err(|e| format!("profile directory: {e}"))?;
        let mut child = Command::new(binary)
            // Its own process group, so that every Chromium process goes at the end.
            .process_group(0)
            .args(FLAGS)
            .arg(format!("--user-data-dir={}", profile.display()))
            .arg("about:blank")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start {}: {e}", binary.display()))?;
        match Browser::connect(&mut child, binary) {
            Ok(socket) => Ok(Browser {
                child,
                connection: Rc::new(RefCell::new(Connection {
                    socket,
                    next_id: 0,
                    errors: Vec::new(),
                    requests: std::collections::HashMap::new(),
                })),
                profile,
            }),
            Err(reason) => {
                kill_group(&mut child);
                let _ = std::fs::remove_dir_all(&profile);
                Err(reason)
            }
        }
    }

    /// Reads the DevTools address from Chromium's stderr and opens the websocket.
    fn connect(child: &mut Child, binary: &Path) -> Result<WebSocket<TcpStream>, String> {
        let stderr = child.stderr.take().ok_or("no stderr")?;
        let (found, address) = mpsc::channel();
        // Reads the DevTools address, then keeps draining Chromium's chatter.
        std::thread::spawn(move || {
            let mut found = Some(found);
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Some(url) = line.strip_prefix("DevTools listening on ")
                    && let Some(sender) = found.take()
                {
                    let _ = sender.send(url.trim().to_string());
                }
            }
        });
        let url = address
            .recv_timeout(Duration::from_secs(30))
            .map_err(|_| format!("{} did not start its DevTools endpoint", binary.display()))?;
        let host = url
            .strip_prefix("ws://")
            .and_then(|rest| rest.split('/').next())
            .ok_or_else(|| format!("unexpected DevTools address {url}"))?
            .to_string();
        let stream = TcpStream::connect(&host).map_err(|e| format!("connect {host}: {e}"))?;
        // The handshake blocks (with a bound); reads afterwards wake up often
        // so that a command's deadline is checked.
        stream
            .set_read_timeout(Some(Duration::from_secs(20)))
            .map_err(|e| e.to_string())?;
        let (socket, _) =
            tungstenite::client(url.as_str(), stream).map_err(|e| format!("handshake: {e}"))?;
        socket
            .get_ref()
            .set_read_timeout(Some(Duration::from_millis(200)))
            .map_err(|e| e.to_string())?;
        Ok(socket)
    }

    fn call(&self, method: &str, params: Value) -> Value {
        self.connection
            .borrow_mut()
            .send(None, method, params)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// A page in a new browser context: its own cookies and localStorage.
    pub fn new_person(&self, width: u32, height: u32) -> Page {
        let context = self.call("Target.createBrowserContext", json!({}))["browserContextId"]
            .as_str()
            .expect("a browser context id")
            .to_string();
        self.open_page(Some(&context), width, height)
    }

    /// A page in `context` (the default one when `None`).
    fn open_page(&self, context: Option<&str>, width: u32, height: u32) -> Page {
        let mut params = json!({ "url": "about:blank" });
        if let Some(context) = context {
            params["browserContextId"] = json!(context);
        }
        let target = self.call("Target.createTarget", params)["targetId"]
            .as_str()
            .expect("a target id")
            .to_string();
        let session = self.call(
            "Target.attachToTarget",
            json!({ "targetId": target, "flatten": true }),
        )["sessionId"]
            .as_str()
            .expect("a session id")
            .to_string();
        let page = Page {
            connection: Rc::clone(&self.connection),
            session,
            target,
        };
        page.call("Runtime.enable", json!({}));
        page.call("Page.enable", json!({}));
        page.call("Network.enable", json!({}));
        page.call("Log.enable", json!({}));
        page.set_viewport(width, height, false);
        page
    }

    /// JavaScript errors seen on every page so far.
    pub fn errors(&self) -> Vec<String> {
        self.connection
            .borrow()
            .errors
            .iter()
            .map(|(session, text)| format!("[{session}] {text}"))
            .collect()
    }
}

/// Kills Chromium's whole process group: the browser, its zygotes, renderers
/// and helpers.
fn kill_group(child: &mut Child) {
    if let Ok(group) = i32::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group; it
        // touches no memory of ours.
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}

impl Drop for Browser {
    fn drop(&mut self) {
        kill_group(&mut self.child);
        // Helpers may take a moment to go; the profile is removed after them.
        std::thread::sleep(Duration::from_millis(100));
        let _ = std::fs::remove_dir_all(&self.profile);
    }
}

/// One tab.
pub struct Page {
    connection: Rc<RefCell<Connection>>,
    session: String,
    target: String,
}

impl Page {
    pub fn call(&self, method: &str, params: Value) -> Value {
        self.connection
            .borrow_mut()
            .send(Some(&self.session), method, params)
            .unwrap_or_else(|e| panic!("{e}"))
    }

    /// Closes the tab, as a person closing it would (its connections end).
    pub fn close(self) {
        self.connection
            .borrow_mut()
            .send(
                None,
                "Target.closeTarget",
                json!({ "targetId": self.target }),
            )
            .unwrap_or_else(|e| panic!("{e}"));
    }

    pub fn set_viewport(&self, width: u32, height: u32, mobile: bool) {
        self.call(
            "Emulation.setDeviceMetricsOverride",
            json!({ "width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile }),
        );
    }

    /// Loads `url` and waits for the document and its modules.
    pub fn goto(&self, url: &str) {
        self.call("Page.navigate", json!({ "url": url }));
        self.wait_for("document.readyState === 'complete' && !!document.querySelector('#app > *')");
    }

    pub fn reload(&self) {
        self.call("Page.reload", json!({ "ignoreCache": false }));
        std::thread::sleep(Duration::from_millis(200));
        self.wait_for("document.readyState === 'complete' && !!document.querySelector('#app > *')");
    }

    /// Evaluates an expression (awaiting a promise) and returns its JSON value.
    pub fn eval(&self, expression: &str) -> Value {
        let result = self.call(
            "Runtime.evaluate",
            json!({ "expression": expression, "returnByValue": true, "awaitPromise": true }),
        );
        if let Some(details) = result.get("exceptionDetails") {
            panic!("evaluating {expression}: {details}");
        }
        result["result"]["value"].clone()
    }

    /// Polls `expression` until it is truthy (20 s at most); its value.
    pub fn wait_for(&self, expression: &str) -> Value {
        self.wait_for_within(expression, Duration::from_secs(20))
    }

    pub fn wait_for_within(&self, expression: &str, limit: Duration) -> Value {
        let deadline = Instant::now() + limit;
        loop {
            let value = self.eval(&format!(
                "(() => {{ try {{ return ({expression}); }} catch (e) {{ return null; }} }})()"
            ));
            let truthy = match &value {
                Value::Null => false,
                Value::Bool(b) => *b,
                Value::Number(n) => n.as_f64() != Some(0.0),
                Value::String(s) => !s.is_empty(),
                _ => true,
            };
            if truthy {
                return value;
            }
            if Instant::now() > deadline {
                let shot = PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
                    .join("browser-screenshots")
                    .join(format!("failure-{}.png", std::process::id()));
                self.screenshot(&shot);
                panic!(
                    "waited {limit:?} for {expression}\npage: {}\nscreenshot: {}",
                    self.describe(),
                    shot.display()
                );
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the page shows and what it still waits for, for failure messages.
    pub fn describe(&self) -> String {
        let open: Vec<String> = self
            .connection
            .borrow()
            .requests
            .values()
            .filter(|(session, _)| *session == self.session)
            .map(|(_, what)| what.clone())
            .collect();
        let shown = self
            .eval(
                "(() => { const g = document.querySelector('.game'); \
             return JSON.stringify({ url: location.pathname, data: g ? { ...g.dataset } : null, \
             status: document.querySelector('.status')?.textContent, \
             hint: document.querySelector('.hint')?.textContent, \
             connection: document.querySelector('.connection')?.textContent, \
             error: document.querySelector('.error')?.textContent }); })()",
            )
            .as_str()
            .unwrap_or("")
            .to_string();
        let errors: Vec<String> = self
            .connection
            .borrow()
            .errors
            .iter()
            .map(|(_, text)| text.clone())
            .collect();
        format!("{shown}\nrequests under way: {open:?}\nJavaScript errors: {errors:?}")
    }

    /// Clicks the centre of the first element matching `selector` with real
    /// mouse events, after checking that nothing covers it.
    pub fn click(&self, selector: &str) {
        self.click_nth(selector, 0);
    }

    /// Clicks the `n`th element matching `selector`.
    pub fn click_nth(&self, selector: &str, n: usize) {
        let point = self.wait_for(&format!(
            "(() => {{ const el = document.querySelectorAll({sel})[{n}]; if (!el) return null; \
             el.scrollIntoView({{ block: 'center', inline: 'center' }}); \
             const r = el.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2; \
             const hit = document.elementFromPoint(x, y); \
             return {{ x, y, covered: !(hit && (hit === el || el.contains(hit))), by: hit ? hit.outerHTML.slice(0, 80) : null }}; }})()",
            sel = json!(selector)
        ));
        assert_eq!(
            point["covered"], false,
            "{selector} is covered by {}",
            point["by"]
        );
        let (x, y) = (
            point["x"].as_f64().unwrap_or(0.0),
            point["y"].as_f64().unwrap_or(0.0),
        );
        self.mouse_click(x, y);
    }

    pub fn mouse_click(&self, x: f64, y: f64) {
        self.call(
            "Input.dispatchMouseEvent",
            json!({ "type": "mouseMoved", "x": x, "y": y }),
        );
        for kind in ["mousePressed", "mouseReleased"] {
            self.call(
                "Input.dispatchMouseEvent",
                json!({ "type": kind, "x": x, "y": y, "button": "left", "clickCount": 1 }),
            );
        }
    }

    /// Presses a key (`Enter`, `Tab`, ` `) on the focused element.
    pub fn press(&self, key: &str) {
        let (code, key_code, text) = match key {
            "Enter" => ("Enter", 13, "\r"),
            "Tab" => ("Tab", 9, ""),
            " " => ("Space", 32, " "),
            "ArrowLeft" => ("ArrowLeft", 37, ""),
            "ArrowRight" => ("ArrowRight", 39, ""),
            "Home" => ("Home", 36, ""),
            "End" => ("End", 35, ""),
            other => panic!("no key {other}"),
        };
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": if text.is_empty() { "rawKeyDown" } else { "keyDown" }, "key": key,
                    "code": code, "windowsVirtualKeyCode": key_code, "text": text }),
        );
        self.call(
            "Input.dispatchKeyEvent",
            json!({ "type": "keyUp", "key": key, "code": code, "windowsVirtualKeyCode": key_code }),
        );
    }

    /// Types text into the focused element.
    pub fn type_text(&self, text: &str) {
        self.call("Input.insertText", json!({ "text": text }));
    }

    /// Saves a PNG of the viewport.
    pub fn screenshot(&self, path: &Path) {
        let shot = self.call("Page.captureScreenshot", json!({ "format": "png" }));
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(shot["data"].as_str().unwrap_or(""))
            .expect("a base64 screenshot");
        if let Some(dir) = path.parent() {
            std::fs::create_dir_all(dir).expect("the screenshot directory");
        }
        std::fs::write(path, bytes).expect("the screenshot is written");
    }
}
