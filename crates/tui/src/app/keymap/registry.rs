//! Every key table whose keys the config file's `[keys]` can remap, and that `appdeck keys`
//! lists. A new pane's table goes here (its `assert_well_formed` test fails until it does).

use super::{EDITOR, FIELD_INPUT, KeyTable, LINE_INPUT};
use crate::app::overlay::value::VALUE_KEYS;
use crate::app::overlay::{HELP_FILTER_KEYS, PICKER_KEYS, POPUP_KEYS, QUIT_KEYS};
use crate::app::panes::browser::keys::BROWSER_KEYS;
use crate::app::panes::connect::keys as connect;
use crate::app::panes::detail::keys::DETAIL_KEYS;
use crate::app::panes::history::keys::{ENTRY_KEYS, HISTORY_KEYS};
use crate::app::panes::overview::keys::OVERVIEW_KEYS;
use crate::app::panes::report::keys::{
    ANSWER_KEYS, COMPOSER_KEYS, MARKED_RESULTS_KEYS, MARKED_REVIEW_KEYS, MARKED_SENDING_KEYS,
    REVIEW_KEYS, SENDING_KEYS, UNPARSED_KEYS,
};
use crate::app::panes::type_detail::keys::TYPE_DETAIL_KEYS;
use crate::app::panes::types::keys::TYPES_KEYS;

pub(crate) static TABLES: [&KeyTable; 29] = [
    &BROWSER_KEYS,
    &DETAIL_KEYS,
    &TYPES_KEYS,
    &TYPE_DETAIL_KEYS,
    &HISTORY_KEYS,
    &ENTRY_KEYS,
    &OVERVIEW_KEYS,
    &COMPOSER_KEYS,
    &UNPARSED_KEYS,
    &REVIEW_KEYS,
    &SENDING_KEYS,
    &ANSWER_KEYS,
    &MARKED_REVIEW_KEYS,
    &MARKED_SENDING_KEYS,
    &MARKED_RESULTS_KEYS,
    &connect::PICKER_KEYS,
    &connect::WAITING_KEYS,
    &connect::CONNECT_KEYS,
    &connect::REVIEW_KEYS,
    &connect::SENDING_KEYS,
    &connect::ANSWER_KEYS,
    &POPUP_KEYS,
    &QUIT_KEYS,
    &VALUE_KEYS,
    &PICKER_KEYS,
    &HELP_FILTER_KEYS,
    &LINE_INPUT,
    &FIELD_INPUT,
    &EDITOR,
];
