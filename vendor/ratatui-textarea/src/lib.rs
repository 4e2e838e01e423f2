#![forbid(unsafe_code)]
#![allow(clippy::needless_range_loop)]
#![warn(clippy::dbg_macro, clippy::print_stdout)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![doc = include_str!("../README.md")]

mod cursor;
mod highlight;
mod history;
mod input;
mod screen_map;
mod scroll;
#[cfg(feature = "search")]
mod search;
mod textarea;
mod util;
mod widget;
mod word;
mod wrap;

pub use cursor::{CursorMove, DataCursor, ScreenCursor};
pub use input::{Input, Key};
pub use scroll::Scrolling;
pub use textarea::TextArea;
pub use wrap::WrapMode;
