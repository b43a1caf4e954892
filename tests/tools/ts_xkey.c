/* Test helper: presses a key in an X window, as a user would.
 *
 *   ts_xkey NAME KEY      KEY as an X keysym name: q, f, Escape, F11
 *
 * Finds the first window whose name contains NAME (anywhere in the tree),
 * waits (up to 10 s) until it is mapped and some client listens for its key
 * presses, as a user would wait for the window to show, and sends it a key
 * press and release (XSendEvent). Exit 0, or 1 with a message when there is
 * no display or no such window. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <X11/Xlib.h>
#include <X11/Xutil.h>

static Window find(Display *d, Window w, const char *name)
{
    char *wn = NULL;
    if (XFetchName(d, w, &wn) && wn) {
        int hit = strstr(wn, name) != NULL;
        XFree(wn);
        if (hit)
            return w;
    }
    Window root, parent, *kids = NULL;
    unsigned n = 0;
    Window found = 0;
    if (XQueryTree(d, w, &root, &parent, &kids, &n)) {
        for (unsigned i = 0; i < n && !found; i++)
            found = find(d, kids[i], name);
        if (kids)
            XFree(kids);
    }
    return found;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: ts_xkey WINDOW_NAME KEYSYM\n");
        return 2;
    }
    Display *d = XOpenDisplay(NULL);
    if (!d) {
        fprintf(stderr, "ts_xkey: cannot open the display\n");
        return 1;
    }
    /* A window listed by the server may not be mapped yet, nor have its
     * sink's key mask selected: a key sent then is lost. */
    Window w = 0;
    for (int tries = 0; tries < 200; tries++) {
        w = find(d, DefaultRootWindow(d), argv[1]);
        XWindowAttributes a;
        if (w && XGetWindowAttributes(d, w, &a) && a.map_state == IsViewable &&
            (a.all_event_masks & KeyPressMask))
            break;
        nanosleep(&(struct timespec){.tv_nsec = 50 * 1000 * 1000}, NULL);
    }
    KeySym sym = XStringToKeysym(argv[2]);
    if (!w || sym == NoSymbol) {
        fprintf(stderr, "ts_xkey: %s\n", w ? "unknown key" : "no such window");
        XCloseDisplay(d);
        return 1;
    }
    XKeyEvent e;
    memset(&e, 0, sizeof e);
    e.display = d;
    e.window = w;
    e.root = DefaultRootWindow(d);
    e.same_screen = True;
    e.keycode = XKeysymToKeycode(d, sym);
    e.time = CurrentTime;
    e.type = KeyPress;
    XSendEvent(d, w, True, KeyPressMask, (XEvent *)&e);
    e.type = KeyRelease;
    XSendEvent(d, w, True, KeyReleaseMask, (XEvent *)&e);
    XSync(d, False);
    XCloseDisplay(d);
    return 0;
}
