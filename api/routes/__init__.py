"""The service's routes, one router per resource: each route parses the request, makes one library call and
maps its errors to a problem."""
