import ReconCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

exit(await CommandLineEntry.run(Array(CommandLine.arguments.dropFirst())))
