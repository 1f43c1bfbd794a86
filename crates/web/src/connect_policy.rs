//! Where this page may send requests: the `connect-src` list of its Content Security Policy,
//! read from the page itself. The build narrows it to the LLM judge presets' hosts, Langfuse and
//! this machine (more with `QEVAL_CONNECT_SRC` at build time); the settings say so before a call
//! the browser would block, instead of leaving the user with a bare network error.

use web_sys::Url;

/// The `connect-src` sources of the page's policy, or `None` when the page has no policy (a
/// development build without the hook): then everything is allowed.
fn sources() -> Option<Vec<String>> {
    let document = web_sys::window()?.document()?;
    let meta = document
        .query_selector(r#"meta[http-equiv="Content-Security-Policy"]"#)
        .ok()??;
    let policy = meta.get_attribute("content")?;
    let directive = policy
        .split(';')
        .map(str::trim)
        .find(|d| d.starts_with("connect-src"))?;
    Some(
        directive
            .split_whitespace()
            .skip(1)
            .map(str::to_string)
            .collect(),
    )
}

/// `url` read as this page reads it: a relative link is on the page's own site.
pub fn resolve(url: &str) -> Option<Url> {
    let page = web_sys::window()?.location().href().ok()?;
    Url::new_with_base(url, &page).ok()
}

/// Whether `url` is on this page's own origin (a relative link is).
pub fn is_same_origin(url: &str) -> bool {
    let own = web_sys::window().and_then(|w| w.location().origin().ok());
    resolve(url).is_some_and(|target| own.is_some_and(|own| target.origin() == own))
}

/// Why `url` cannot be reached from this page, or `None` when the policy allows it.
pub fn blocked(url: &str) -> Option<String> {
    let sources = sources()?;
    let target = resolve(url)?;
    let allowed = sources.iter().any(|source| {
        if source == "'self'" {
            return is_same_origin(url);
        }
        matches_source(source, &target)
    });
    (!allowed).then(|| {
        let hosts: Vec<&str> = sources
            .iter()
            .map(String::as_str)
            .filter(|s| *s != "'self'")
            .collect();
        format!(
            "This page's security policy does not allow requests to {}. It allows this page's own origin and {}. Use one of those, or build the page with QEVAL_CONNECT_SRC=\"{}\" (see the README).",
            target.origin(),
            hosts.join(", "),
            target.origin()
        )
    })
}

/// A host source of the policy (`https://api.openai.com`, `https://*.openai.azure.com`,
/// `http://localhost:*`) against a URL.
fn matches_source(source: &str, target: &Url) -> bool {
    let Some((scheme, rest)) = source.split_once("://") else {
        // A bare scheme (`https:`) allows every host of that scheme.
        return source.strip_suffix(':') == Some(target.protocol().trim_end_matches(':'));
    };
    if format!("{scheme}:") != target.protocol() {
        return false;
    }
    let rest = rest.split('/').next().unwrap_or(rest);
    let (host, port) = match rest.rsplit_once(':') {
        Some((host, port)) => (host, Some(port)),
        None => (rest, None),
    };
    let host_ok = match host.strip_prefix("*.") {
        Some(domain) => target.hostname().ends_with(&format!(".{domain}")),
        None => target.hostname().eq_ignore_ascii_case(host),
    };
    let port_ok = match port {
        Some("*") => true,
        Some(port) => target.port() == port,
        None => target.port().is_empty(),
    };
    host_ok && port_ok
}
