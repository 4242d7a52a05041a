import ArgumentParser
import ReconCore
import Reports

/// Runs `connect-recon` with arguments and returns the exit status, printing errors a person can act on.
///
/// ArgumentParser's own usage errors become exit status 2 (README.md), not its default 64.
public enum CommandLineEntry {
    /// Parses and runs `arguments` (without the program name) in the current ``CommandContext``.
    public static func run(_ arguments: [String]) async -> Int32 {
        let console = CommandContext.current.console
        do {
            var command = try ConnectRecon.parseAsRoot(arguments)
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            return ExitStatus.completed.rawValue
        } catch let completed as CompletedWithStatus {
            return completed.status.rawValue
        } catch let error as any ActionableError {
            console.writeError("error: \(error.message)\n")
            return (error.isBadInput ? ExitStatus.badInput : ExitStatus.failed).rawValue
        } catch {
            // ArgumentParser: --help and --version exit 0 with their text; usage mistakes exit 2.
            let code = ConnectRecon.exitCode(for: error)
            let text = ConnectRecon.fullMessage(for: error)
            if code == .success {
                if !text.isEmpty { console.writeOutput(text + "\n") }
                return ExitStatus.completed.rawValue
            }
            // A usage error repeats the argument it did not expect: never echo a key someone typed there.
            if !text.isEmpty { console.writeError(SecretRedaction.redacted(text) + "\n") }
            return code == .validationFailure ? ExitStatus.badInput.rawValue : ExitStatus.failed.rawValue
        }
    }
}
