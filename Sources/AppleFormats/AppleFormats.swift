// AppleFormats: pure parsers and writers of Apple's file formats: Mach-O, DWARF, DER/BER/CMS,
// X.509, provisioning profiles, code signatures, property lists, zip, CgBI PNG, crash reports in all
// the forms betactl takes (CrashReportDocument is the one entry point that says which), configuration
// profiles, enrolment replies, demangling, hashes and UDIDs.
//
// No I/O: every parser takes bytes and returns values or a typed error; none traps, hangs or
// overflows the stack on bad input. It may import the standard library, the Foundation essentials,
// CZlib (inflate) and single C library functions (memchr, vsnprintf, dlsym for the demanglers),
// nothing else of this package.
