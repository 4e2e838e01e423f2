//! Pure update tests of the connect composer: keys in, state and commands out.
