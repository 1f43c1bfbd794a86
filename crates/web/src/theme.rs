//! Light and dark: the page follows the system's `prefers-color-scheme` unless the user picks
//! one with the theme button; the choice is kept in `localStorage`. The stylesheet does the
//! colors (`data-theme` on the root element overrides the media query), the charts' too.

const KEY: &str = "qeval-theme";

/// What the user chose.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ThemeChoice {
    /// As the system says.
    Auto,
    Light,
    Dark,
}

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
}

fn storage() -> Option<web_sys::Storage> {
    web_sys::window()?.local_storage().ok().flatten()
}
