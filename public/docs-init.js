// Served locally: the API reference works on an air-gapped production network.
window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#swagger-ui', deepLinking: true });
