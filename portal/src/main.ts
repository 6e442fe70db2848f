// The portal's entry point; the portal issue replaces this with the application.
document.documentElement.dataset.ready = 'true';
