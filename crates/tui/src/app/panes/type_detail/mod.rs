//! A type's detail: what it is (description, source, capabilities spelled out, links, actions),
//! its instructions as formatted text, its schemas as explain trees, and the raw JSON of the
//! definition. Four panes on two pages: `About` and `Instructions` side by side, `Tab` to the
//! `Schemas` and the `Raw JSON`. Everything is laid out once when the view opens (in the
//! background for a large type, see [`OpenType`]); a frame only slices what is visible.

mod about;
pub(crate) mod keys;
pub(crate) mod layout;
pub(crate) mod schema;
mod update;

use std::sync::Arc;

use ratatui::layout::Rect;
use ratatui::text::Line;

use crate::app::KnownTypes;
use crate::app::widgets::ListCursor;
use crate::catalog::{KnownType, TypeDefinition};
use crate::sanitize;
pub(crate) use about::{AboutKind, AboutLine};
use schema::SchemaTree;

/// A definition whose JSON is larger than this is laid out on a background task.
const OPEN_IN_BACKGROUND_BYTES: usize = 256 * 1024;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TypePart {
    About,
    Instructions,
    Schemas,
    Raw,
}

impl TypePart {
    pub const ALL: [TypePart; 4] = [
        TypePart::About,
        TypePart::Instructions,
        TypePart::Schemas,
        TypePart::Raw,
    ];

    pub(crate) fn index(self) -> usize {
        Self::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }

    pub(crate) fn cycle(self, forward: bool) -> Self {
        let i = self.index();
        Self::ALL[if forward { (i + 1) % 4 } else { (i + 3) % 4 }]
    }

    /// The page it is on: 0 for about and instructions, 1 for schemas and raw JSON.
    pub(crate) fn page(self) -> usize {
        self.index() / 2
    }
}

/// What opening a type needs; sent to a background task when the type is large.
#[derive(Clone, Debug)]
pub struct OpenType {
    pub known: Arc<KnownTypes>,
    /// The type's index in the catalog.
    pub type_index: usize,
    /// Which of its definitions (0 is the newest).
    pub version: usize,
    /// The width of the body, which the texts are wrapped to.
    pub width: u16,
}

impl OpenType {
    pub(crate) fn definition(&self) -> Option<&TypeDefinition> {
        self.known_type()?.definitions.get(self.version)
    }

    fn known_type(&self) -> Option<&KnownType> {
        self.known.catalog.types().get(self.type_index)
    }

    /// The app version that no longer defines the type, if one does not.
    fn removed_in(&self) -> Option<&str> {
        self.known_type()?.removed_in.as_deref()
    }

    /// Whether laying it out could take long enough to be felt.
    pub fn is_large(&self) -> bool {
        self.definition().is_some_and(|d| {
            serde_json::to_vec(&d.definition).map_or(0, |v| v.len()) > OPEN_IN_BACKGROUND_BYTES
        })
    }
}

/// Laid out off the UI thread for a large type ([`OpenType::is_large`]).
impl crate::app::job::Job for OpenType {
    type Output = TypeDetail;

    fn run(&self, _: &crate::app::job::Progress) -> TypeDetail {
        TypeDetail::open(self)
    }
}

#[derive(Clone, Debug)]
pub struct TypeDetail {
    pub known: Arc<KnownTypes>,
    pub type_index: usize,
    pub version: usize,
    /// How many definitions the type has (app versions, sources).
    pub versions: usize,
    pub title: String,
    pub about: Vec<AboutLine>,
    pub instructions: Vec<Line<'static>>,
    pub schemas: SchemaTree,
    pub raw: Vec<String>,
    pub focus: TypePart,
    pub cursors: [ListCursor; 4],
    /// The body width the texts were wrapped for.
    width: u16,
    /// Another version (`v`) of a large type being laid out in the background.
    pub opening: Option<crate::app::RequestId>,
}

impl TypeDetail {
    /// Lays out a type's definition. Linear in its size: run it off the UI thread for a large one.
    pub fn open(request: &OpenType) -> Self {
        let versions = request
            .known
            .catalog
            .types()
            .get(request.type_index)
            .map_or(0, |t| t.definitions.len());
        let definition = request.definition();
        let (about_width, instructions_width) = layout::text_widths(request.width);
        let mut detail = TypeDetail {
            known: request.known.clone(),
            type_index: request.type_index,
            version: request.version,
            versions,
            title: String::new(),
            about: Vec::new(),
            instructions: Vec::new(),
            schemas: SchemaTree::default(),
            raw: Vec::new(),
            focus: TypePart::About,
            cursors: [ListCursor::default(); 4],
            width: request.width,
            opening: None,
        };
        let Some(definition) = definition else {
            detail.title = "(no such type)".to_owned();
            return detail;
        };
        detail.title = sanitize::line(&definition.name).into_owned();
        let removed_in = request.removed_in();
        detail.about = about::about_lines(
            definition,
            removed_in,
            request.version,
            versions,
            about_width,
        );
        detail.instructions = about::instructions(definition, instructions_width);
        detail.schemas = SchemaTree::new(&definition.schemas());
        detail.raw = serde_json::to_string_pretty(&definition.definition)
            .unwrap_or_default()
            .lines()
            .map(|l| sanitize::line(l).into_owned())
            .collect();
        detail
    }

    pub(crate) fn definition(&self) -> Option<&TypeDefinition> {
        self.known_type()?.definitions.get(self.version)
    }

    fn known_type(&self) -> Option<&KnownType> {
        self.known.catalog.types().get(self.type_index)
    }

    /// The texts again at a new width (after a resize); the schemas and raw JSON do not wrap.
    pub(crate) fn rewrap(&mut self, width: u16) {
        if width == self.width {
            return;
        }
        self.width = width;
        let (about_width, instructions_width) = layout::text_widths(width);
        let (version, versions) = (self.version, self.versions);
        let removed_in = self.known_type().and_then(|t| t.removed_in.as_deref());
        if let Some(definition) = self.definition() {
            let about = about::about_lines(definition, removed_in, version, versions, about_width);
            let instructions = about::instructions(definition, instructions_width);
            self.about = about;
            self.instructions = instructions;
        }
    }

    pub(crate) fn areas(&self, body: Rect) -> layout::TypeDetailAreas {
        layout::areas(body, self.focus)
    }

    /// Lines of `pane` in view in `body`.
    pub(crate) fn pane_height(&self, pane: TypePart, body: Rect) -> usize {
        usize::from(self.areas(body).rows(pane).height)
    }

    pub(crate) fn pane_len(&self, pane: TypePart) -> usize {
        match pane {
            TypePart::About => self.about.len(),
            TypePart::Instructions => self.instructions.len(),
            TypePart::Schemas => self.schemas.visible().len(),
            TypePart::Raw => self.raw.len(),
        }
    }

    pub(crate) fn cursor(&self, pane: TypePart) -> ListCursor {
        self.cursors[pane.index()]
    }

    pub(crate) fn cursor_mut(&mut self, pane: TypePart) -> &mut ListCursor {
        &mut self.cursors[pane.index()]
    }

    /// What `o` opens: the link under the cursor of the about pane.
    pub(crate) fn url_under_cursor(&self) -> Option<String> {
        match self.focus {
            TypePart::About => self
                .about
                .get(self.cursor(TypePart::About).selected)?
                .url
                .clone(),
            _ => None,
        }
    }

    /// What `y` copies, and what to call it.
    pub(crate) fn value_under_cursor(&self) -> Option<(String, &'static str)> {
        let selected = self.cursor(self.focus).selected;
        match self.focus {
            TypePart::About => {
                let line = self.about.get(selected)?;
                match &line.url {
                    Some(url) => Some((url.clone(), "link")),
                    None => Some((line.copy.clone()?, "value")),
                }
            }
            TypePart::Instructions => Some((
                self.definition()?
                    .definition
                    .instructions_markdown
                    .get()?
                    .clone(),
                "instructions",
            )),
            TypePart::Schemas => {
                let node = self.schemas.node(*self.schemas.visible().get(selected)?)?;
                Some((node.name.clone(), "field name"))
            }
            TypePart::Raw => self
                .raw
                .get(selected)
                .map(|l| (l.trim().to_owned(), "line")),
        }
    }
}

#[cfg(test)]
mod tests;

/// Two requests are the same when they open the same definition of the same catalog.
impl PartialEq for OpenType {
    fn eq(&self, other: &Self) -> bool {
        Arc::ptr_eq(&self.known, &other.known)
            && (self.type_index, self.version, self.width)
                == (other.type_index, other.version, other.width)
    }
}
