//! encode
