/* Placeholder until the renderer lands. */
int ts_render_placeholder(void);
int ts_render_placeholder(void) { return 0; }
