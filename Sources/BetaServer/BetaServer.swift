/// Placeholder so the module builds before its first type lands.
enum BetaServerModule {}
