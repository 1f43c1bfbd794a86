//! Light and dark: the page follows the system's `prefers-color-scheme` unless the user picks
//! one with the theme button; the choice is kept in `localStorage`. The stylesheet does the
//! colors (`data-theme` on the root element overrides the media query); the charts, drawn on
//! canvas, take theirs from [`Dark`], which the page provides as a context.

use wasm_bindgen::JsCast;

const KEY: &str = "qeval-theme";
const DARK_QUERY: &str = "(prefers-color-scheme: dark)";

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeChoice {
    /// As the system says.
    Auto,
    Light,
    Dark,
}

/// Whether the page is dark now, whatever made it so.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Dark(pub bool);

impl ThemeChoice {
    /// The stored choice; `Auto` when there is none.
    pub fn load() -> ThemeChoice {
        match storage()
            .and_then(|s| s.get_item(KEY).ok().flatten())
            .as_deref()
        {
            Some("light") => ThemeChoice::Light,
            Some("dark") => ThemeChoice::Dark,
            _ => ThemeChoice::Auto,
        }
    }

    /// Stores the choice and sets the root element's `data-theme` for the stylesheet.
    pub fn apply(self) {
        let name = self.name();
        if let Some(storage) = storage() {
            let _ = storage.set_item(KEY, name);
        }
        if let Some(root) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.document_element())
        {
            let _ = match self {
                ThemeChoice::Auto => root.remove_attribute("data-theme"),
                _ => root.set_attribute("data-theme", name),
            };
        }
    }

    /// The choice after this one, as the theme button cycles.
    pub fn next(self) -> ThemeChoice {
        match self {
            ThemeChoice::Auto => ThemeChoice::Dark,
            ThemeChoice::Dark => ThemeChoice::Light,
            ThemeChoice::Light => ThemeChoice::Auto,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            ThemeChoice::Auto => "auto",
            ThemeChoice::Light => "light",
            ThemeChoice::Dark => "dark",
        }
    }

    /// Dark or not, with the system's preference for `Auto`.
    pub fn dark(self, system_dark: bool) -> Dark {
        Dark(match self {
            ThemeChoice::Auto => system_dark,
            ThemeChoice::Light => false,
            ThemeChoice::Dark => true,
        })
    }
}

/// Whether the system prefers dark.
pub fn system_prefers_dark() -> bool {
    dark_query().is_some_and(|query| query.matches())
}

/// Calls `on_change` with the system's preference whenever it changes; the listener lives as
/// long as the returned value.
pub fn watch_system(on_change: impl Fn(bool) + 'static) -> Option<gloo_events::EventListener> {
    let query = dark_query()?;
    let target: web_sys::EventTarget = query.clone().unchecked_into();
    Some(gloo_events::EventListener::new(
        &target,
        "change",
        move |_| on_change(query.matches()),
    ))
}

fn dark_query() -> Option<web_sys::MediaQueryList> {
    web_sys::window()?.match_media(DARK_QUERY).ok().flatten()
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
