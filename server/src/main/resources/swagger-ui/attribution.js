// The document this server assembles at run time (/openapi.yml); its `servers` entry is the address the page was
// loaded from, so "Try it out" calls this same server. "Authorize" takes the account's API key.
window.ui = SwaggerUIBundle({
  url: new URL("../openapi.yml", window.location.href).toString(),
  dom_id: "#swagger-ui",
  deepLinking: true,
  presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],
  plugins: [SwaggerUIBundle.plugins.DownloadUrl],
  layout: "StandaloneLayout",
  tagsSorter: "alpha",
  validatorUrl: null
});
