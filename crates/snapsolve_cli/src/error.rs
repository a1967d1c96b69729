//! The one error type of the command line, and the exit code each kind maps to.

use std::fmt;

/// A failure reported to the user: a message and an exit code.
#[derive(Debug)]
pub struct CliError {
    message: String,
    kind: Kind,
}

#[derive(Debug, Clone, Copy)]
enum Kind {
    /// The user asked for something malformed (bad card name, bad flag value): exit 2.
    Usage,
    /// The input could not be processed or the work failed: exit 1.
    Failed,
}

impl CliError {
    /// Bad arguments or malformed input from the user.
    pub fn usage(message: impl fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            kind: Kind::Usage,
        }
    }

    /// Something went wrong while doing the work.
    pub fn failed(message: impl fmt::Display) -> CliError {
        CliError {
            message: message.to_string(),
            kind: Kind::Failed,
        }
    }

    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self.kind {
            Kind::Usage => 2,
            Kind::Failed => 1,
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for CliError {}

/// Result of a command.
pub type CliResult<T = ()> = Result<T, CliError>;
