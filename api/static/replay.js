/* The replay page: filled in by the web-page work. */
