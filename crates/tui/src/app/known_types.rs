//! The resource types appdeck knows, as the runtime loaded them: kept by the app, read by the
//! panes that show or check against them (types, type detail, composers).

use crate::catalog::Catalog;

/// What the runtime loaded: the catalog, and why some sources gave nothing.
#[derive(Debug, Default)]
pub struct KnownTypes {
    pub catalog: Catalog,
    /// One line per source that could not be used (a bad file, the store), sanitised.
    pub problems: Vec<String>,
}
