/* The validation page: filled in by the web-page work. */
