//! The README and the manual in `docs/` link to each other and to files in the repository; a
//! link that points nowhere is a page a reader cannot open. The test reads every Markdown link
//! and image with a relative target and checks the file is there.

#[cfg(test)]
mod tests {
    use std::path::{Path, PathBuf};

    /// The relative targets of `[text](target)` and `![alt](target)` in `markdown`, without
    /// their `#anchor`.
    fn relative_targets(markdown: &str) -> Vec<String> {
        let mut targets = Vec::new();
        let mut rest = markdown;
        while let Some(start) = rest.find("](") {
            rest = &rest[start + 2..];
            let Some(end) = rest.find(')') else { break };
            let target = rest[..end].split('#').next().unwrap_or_default().trim();
            let external = target.contains("://") || target.starts_with("mailto:");
            if !target.is_empty() && !external && !target.contains(' ') {
                targets.push(target.to_string());
            }
            rest = &rest[end..];
        }
        targets
    }

    #[test]
    fn every_link_in_the_readme_and_docs_resolves() {
        let root = crate::root();
        let mut pages: Vec<PathBuf> = vec![root.join("README.md"), root.join("ARCHITECTURE.md")];
        let docs = std::fs::read_dir(root.join("docs")).expect("docs/");
        pages.extend(
            docs.filter_map(Result::ok)
                .map(|entry| entry.path())
                .filter(|path| path.extension().is_some_and(|e| e == "md")),
        );
        let mut broken = Vec::new();
        let mut checked = 0;
        for page in &pages {
            let text = std::fs::read_to_string(page).expect("a page");
            let folder = page.parent().unwrap_or(Path::new("."));
            for target in relative_targets(&text) {
                checked += 1;
                if !folder.join(&target).exists() {
                    broken.push(format!("{}: {target}", page.display()));
                }
            }
        }
        assert!(broken.is_empty(), "links that point nowhere: {broken:#?}");
        assert!(checked >= 15, "only {checked} links read");
    }

    #[test]
    fn targets_are_read_from_links_and_images() {
        assert_eq!(
            relative_targets("see [a](docs/a.md#x), ![b](img/b.png) and [c](https://x.org/)"),
            ["docs/a.md", "img/b.png"]
        );
    }
}
