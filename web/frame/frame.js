// The portal's frame (index.html's <div id="portal-frame">, docs/web-performance.md): which one the page shows,
// decided before its body renders. Plain script, no module: it runs as soon as it is in, before the app's code.
//
// - "invoices": the invoices screen (the root, /invoices and an invoice's address) with a session stored in this
//   browser: its title and description, as the screen shows them, over a loading state;
// - "signed-in": another screen with a session stored: the portal's layout and a loading state;
// - "signed-out" (also when this script does not run): the top bar and a loading state, before the sign-in.
//
// Whether a session is stored is read as Amplify stores it (localStorage, 'CognitoIdentityServiceProvider.<app
// client>.LastAuthUser'; the mock provider's in sessionStorage, web/src/session/mock-session.ts). The invoices
// screen's title is staff's ("Comprobantes recibidos") when the app last loaded a manager or an administrator in this
// browser, else the supplier's ("Mis comprobantes"): the app keeps only that audience, 'staff' or 'supplier', in
// localStorage's 'portal.audience' (web/src/session/audience.ts); the page is marked data-portal-frame-audience and
// frame.css shows that title. It only chooses what the frame shows: nothing here is a user's, and the app's guard
// decides, as always, what the user may see.
(function () {
  var path = window.location.pathname;
  var invoices = path === '/' || path === '/invoices' || path.indexOf('/invoices/') === 0;
  var signedIn = false;
  var audience = 'supplier';
  try {
    for (var index = 0; index < window.localStorage.length && !signedIn; index += 1) {
      var key = window.localStorage.key(index) || '';
      signedIn =
        /^CognitoIdentityServiceProvider\.[^.]+\.LastAuthUser$/.test(key) && !!window.localStorage.getItem(key);
    }
    signedIn = signedIn || !!window.sessionStorage.getItem('portal.mockSession');
    if (window.localStorage.getItem('portal.audience') === 'staff') audience = 'staff';
  } catch {
    // Storage blocked by the browser: the frame of a visitor not signed in.
  }
  var root = document.documentElement;
  root.setAttribute('data-portal-frame', signedIn ? (invoices ? 'invoices' : 'signed-in') : 'signed-out');
  root.setAttribute('data-portal-frame-audience', audience);

  // The frame's texts show once the two faces they use are in, laid out and painted as the app will paint them
  // (frame.css hides them until then, at most 3 s, as a browser does with a face still loading): painted first in
  // another font, the description would be another size, and the app's own would count as a new largest paint.
  var ready = function () {
    root.setAttribute('data-portal-frame-fonts', 'ready');
  };
  if (document.fonts && document.fonts.load) {
    Promise.all([document.fonts.load('400 14px "Open Sans"'), document.fonts.load('700 14px "Open Sans"')]).then(
      ready,
      ready,
    );
  } else {
    ready();
  }
})();
