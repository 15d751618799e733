// Turning Web Push on and off for this device (templates/notifications/settings.html): registers
// the service worker, subscribes with the server's VAPID key and hands the subscription to the
// server; "off" unsubscribes and tells the server (docs/notifications.md).
(function () {
  const panel = document.getElementById("push-panel");
  if (!panel) return;
  const state = document.getElementById("push-state");
  const onButton = document.getElementById("push-on");
  const offButton = document.getElementById("push-off");
  const say = (name) => { state.textContent = state.dataset[name]; };

  function keyBytes(base64url) {
    const padded = (base64url + "===".slice((base64url.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
  }

  function send(method, subscription) {
    return fetch(panel.dataset.url, {
      method: method,
      headers: { "Content-Type": "application/json", "X-CSRFToken": panel.dataset.csrf },
      credentials: "same-origin",
      body: JSON.stringify(subscription.toJSON ? subscription.toJSON() : subscription),
    }).then((response) => {
      if (!response.ok && response.status !== 204) throw new Error("HTTP " + response.status);
    });
  }

  function show(subscribed) {
    onButton.hidden = subscribed;
    offButton.hidden = !subscribed;
  }

  if (!("serviceWorker" in navigator) || !("PushManager" in window)) {
    say("unsupported");
    onButton.disabled = true;
    return;
  }

  const ready = navigator.serviceWorker.register(panel.dataset.worker, { scope: "/" })
    .then(() => navigator.serviceWorker.ready);

  ready.then((registration) => registration.pushManager.getSubscription())
    .then((subscription) => { if (subscription) { show(true); say("on"); } })
    .catch(() => {});

  onButton.addEventListener("click", () => {
    onButton.disabled = true;
    Notification.requestPermission()
      .then((permission) => {
        if (permission !== "granted") { say("denied"); return null; }
        return ready.then((registration) => registration.pushManager.subscribe({
          userVisibleOnly: true,
          applicationServerKey: keyBytes(panel.dataset.key),
        })).then((subscription) => send("POST", subscription)).then(() => { show(true); say("on"); });
      })
      .catch(() => say("failed"))
      .finally(() => { onButton.disabled = false; });
  });

  offButton.addEventListener("click", () => {
    ready.then((registration) => registration.pushManager.getSubscription())
      .then((subscription) => {
        if (!subscription) return null;
        return send("DELETE", subscription).then(() => subscription.unsubscribe());
      })
      .then(() => { show(false); say("off"); })
      .catch(() => say("failed"));
  });
})();
