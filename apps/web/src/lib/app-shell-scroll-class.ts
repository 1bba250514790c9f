// Mantine's AppShell imports react-remove-scroll for two class names only: its header and footer
// carry `zeroRight` so they keep clear of the scroll bar a dialog hides. The library itself (4.2 KB
// gzip) is the dialogs', which load on first use; vite.config.ts gives the shell this object in its
// place, so the first load of every signed-in page goes without it. The names are the library's
// (app-shell-scroll-class.test.ts compares them).
export const RemoveScroll = {
  classNames: {
    fullWidth: 'width-before-scroll-bar',
    zeroRight: 'right-scroll-bar-position',
  },
};
